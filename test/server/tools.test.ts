// Happy paths of every tool, idempotency, trace ids, validation and unknown tools, through a real SDK client.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { effectArgsKey, REFERENCE_TOOLS, traitsOf } from '../../src/server/tools/catalog.ts';
import { MODERN_TOOLS as TOOLS } from '../../src/server/tools/index.ts';
import { call, connect, errorOf, key, payment, startServer } from './helpers.ts';

describe('reference server tools', () => {
  it('lists the six tools with their real input schemas', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'create_payment',
        'generate_report',
        'get_payment_status',
        'refresh_credentials',
        'search_documents',
        'send_notification',
      ].sort(),
    );
    const create = tools.find((t) => t.name === 'create_payment')!;
    expect(create.inputSchema.required).toEqual(
      expect.arrayContaining(['customer_id', 'amount_cents', 'currency', 'idempotency_key']),
    );
    expect(create.description).toMatch(/get_payment_status/);
  });

  it('create_payment: same key twice is one effect, a new key is a second; the trace id lands in the ledger', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    await client.listTools(); // arms client-side outputSchema validation too
    const k1 = key('pay');
    const first = await call(client, 'create_payment', payment(k1), { traceId: 'op-1' });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ status: 'succeeded', amount_cents: 1250, replayed: false });
    const again = await call(client, 'create_payment', payment(k1), { traceId: 'op-1' });
    expect(again.structuredContent).toMatchObject({
      charge_id: (first.structuredContent as any).charge_id,
      replayed: true,
    });
    expect(await server.ledger()).toHaveLength(1);

    await call(client, 'create_payment', payment(key('pay')), { traceId: 'op-2' });
    const ledger = await server.ledger();
    expect(ledger.map((e) => [e.kind, e.traceId])).toEqual([
      ['payment.charge', 'op-1'],
      ['payment.charge', 'op-2'],
    ]);
    expect(ledger[0].idempotencyKey).toBe(k1);
    expect(ledger[0].argsKey).toMatch(/^[0-9a-f]{16}$/);
  });

  it('every effect carries the argsKey the client computes from the tool arguments (effectArgsKey), trace id or not', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const calls = [
      ['create_payment', { customer_id: 'cus_77', amount_cents: 4321, currency: 'EUR' }],
      ['send_notification', { recipient: 'ana@example.com', channel: 'email', message: 'Order 77 shipped.' }],
      ['generate_report', { report_type: 'audit', duration_ms: 0 }],
    ] as const;
    for (const [tool, args] of calls) {
      const result = await call(client, tool, { ...args, idempotency_key: key(tool) });
      expect(result.isError, tool).toBeFalsy();
    }
    const ledger = await server.ledger();
    expect(ledger.map((e) => e.traceId)).toEqual([undefined, undefined, undefined]);
    // What the workload knows (the tool's planned arguments, no key) names what the dependency recorded.
    expect(ledger.map((e) => e.argsKey)).toEqual(calls.map(([tool, args]) => effectArgsKey(tool, args)));
    expect(new Set(ledger.map((e) => e.argsKey)).size).toBe(3);
    // Reads have none.
    expect(effectArgsKey('search_documents', { query: 'x' })).toBeUndefined();
    expect(effectArgsKey('get_payment_status', { idempotency_key: 'k' })).toBeUndefined();
  });

  it('create_payment: same key with other arguments is RESOURCE.CONFLICT; unknown customer is RESOURCE.NOT_FOUND', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const k = key('pay');
    await call(client, 'create_payment', payment(k, 100));
    const conflict = errorOf(await call(client, 'create_payment', payment(k, 200)));
    expect(conflict).toMatchObject({ errorCode: 'RESOURCE.CONFLICT', category: 'RESOURCE', retryable: false });
    const missing = errorOf(
      await call(client, 'create_payment', { ...payment(key('pay')), customer_id: 'cus_unknown_9' }),
    );
    expect(missing).toMatchObject({ errorCode: 'RESOURCE.NOT_FOUND', retryable: false });
    expect(await server.ledger()).toHaveLength(1);
  });

  it('get_payment_status: succeeded for a made payment, not_found otherwise', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const k = key('pay');
    expect((await call(client, 'get_payment_status', { idempotency_key: k })).structuredContent).toMatchObject({
      status: 'not_found',
    });
    await call(client, 'create_payment', payment(k));
    expect((await call(client, 'get_payment_status', { idempotency_key: k })).structuredContent).toMatchObject({
      status: 'succeeded',
      amount_cents: 1250,
    });
  });

  it('send_notification: deduplicated by the server, concurrent duplicates wait for the first', async () => {
    const server = await startServer();
    await server.setDependencyFaults([{ id: 'slow', dependency: 'notifications', kind: 'latency', ms: 300 }]);
    const { client } = await connect(server.url);
    const args = { recipient: 'ana@example.com', channel: 'email', message: 'Shipped.', idempotency_key: key('ntf') };
    const [a, b] = await Promise.all([
      call(client, 'send_notification', args),
      call(client, 'send_notification', args),
    ]);
    expect(a.isError).toBeFalsy();
    expect((a.structuredContent as any).message_id).toBe((b.structuredContent as any).message_id);
    const c = await call(client, 'send_notification', args);
    expect(c.structuredContent).toMatchObject({ replayed: true });
    await call(client, 'send_notification', { ...args, idempotency_key: key('ntf') });
    const effects = await server.ledger();
    expect(effects.filter((e) => e.kind === 'notification.send')).toHaveLength(2);
    const conflict = errorOf(await call(client, 'send_notification', { ...args, message: 'Other text.' }));
    expect(conflict.errorCode).toBe('RESOURCE.CONFLICT');
  });

  it('search_documents: paginates with nextCursor', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    await client.listTools();
    const first = (await call(client, 'search_documents', { query: 'refunds', page_size: 20 }))
      .structuredContent as any;
    expect(first.results).toHaveLength(20);
    expect(first.total).toBe(30);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (
      await call(client, 'search_documents', { query: 'refunds', page_size: 20, cursor: first.nextCursor })
    ).structuredContent as any;
    expect(second.results).toHaveLength(10);
    expect(second.nextCursor).toBeUndefined();
    expect(new Set([...first.results, ...second.results].map((r: any) => r.id)).size).toBe(30);
  });

  it('generate_report: progress notifications, one report.generate effect', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'generate_report', arguments: { report_type: 'usage', idempotency_key: key('rep'), duration_ms: 300 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress), timeout: 10_000 },
    );
    expect(result.structuredContent).toMatchObject({ status: 'ready', report_type: 'usage' });
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect((await server.ledger()).map((e) => e.kind)).toEqual(['report.generate']);
  });

  it('invalid arguments: VALIDATION.INVALID_ARGUMENTS with fieldErrors, no effect', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const result = await call(client, 'create_payment', {
      customer_id: 'cus_1',
      amount_cents: 12.5,
      currency: 'usd',
      idempotency_key: key('pay'),
      tip: 1,
    });
    const error = errorOf(result);
    expect(error).toMatchObject({
      errorCode: 'VALIDATION.INVALID_ARGUMENTS',
      category: 'VALIDATION',
      retryable: false,
    });
    const paths = error.fieldErrors!.map((f) => f.path).sort();
    expect(paths).toEqual(['amount_cents', 'currency', 'tip']);
    expect(error.fieldErrors!.find((f) => f.path === 'amount_cents')!.expected).toBe('int');
    const sms = errorOf(
      await call(client, 'send_notification', {
        recipient: 'ana@example.com',
        channel: 'sms',
        message: 'x',
        idempotency_key: key('ntf'),
      }),
    );
    expect(sms.fieldErrors).toEqual([
      expect.objectContaining({ path: 'recipient', expected: expect.stringMatching(/E\.164/) }),
    ]);
    expect(await server.ledger()).toHaveLength(0);
  });

  it('unknown tool: JSON-RPC error -32602 with data.availableTools', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const error = await call(client, 'delete_everything', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).data).toMatchObject({ availableTools: expect.arrayContaining(['create_payment']) });
  });

  it('answers 404 for an unknown session id', async () => {
    const server = await startServer();
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'no-such-session',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001 } });
  });

  it('the catalog is read off the tool definitions, and every trait names a real argument or tool', () => {
    expect(REFERENCE_TOOLS).toEqual({
      create_payment: {
        sideEffecting: true,
        idempotencyArg: 'idempotency_key',
        statusLookup: { tool: 'get_payment_status', keyArg: 'idempotency_key' },
      },
      get_payment_status: { sideEffecting: false },
      send_notification: { sideEffecting: true, idempotencyArg: 'idempotency_key' },
      search_documents: { sideEffecting: false },
      generate_report: { sideEffecting: true, idempotencyArg: 'idempotency_key', honoursCancel: true },
      refresh_credentials: { sideEffecting: false },
      // 2026-07-28 only: asks for confirmation (input_required), then charges as create_payment does.
      transfer_funds: {
        sideEffecting: true,
        idempotencyArg: 'idempotency_key',
        statusLookup: { tool: 'get_payment_status', keyArg: 'idempotency_key' },
      },
      // 2026-07-28 only: runs as a task (tools/call answers a task id), then charges as create_payment does.
      settle_batch: {
        sideEffecting: true,
        runsAsTask: true,
        idempotencyArg: 'idempotency_key',
        statusLookup: { tool: 'get_payment_status', keyArg: 'idempotency_key' },
      },
    });
    const byName = new Map(TOOLS.map((t) => [t.name, t]));
    const keyed = TOOLS.filter((t) => t.idempotencyArg);
    expect(keyed.length).toBeGreaterThan(0);
    for (const tool of keyed) expect(Object.keys(tool.input.shape)).toContain(tool.idempotencyArg);
    for (const tool of TOOLS) {
      if (tool.statusLookup) {
        const lookup = byName.get(tool.statusLookup.tool);
        expect(lookup?.sideEffecting).toBe(false);
        expect(Object.keys(lookup!.input.shape)).toContain(tool.statusLookup.keyArg);
      }
    }
    expect(TOOLS.filter((t) => t.sideEffecting && !t.idempotencyArg).map((t) => t.name)).toEqual([]);
    expect(traitsOf('create_paymnet')).toEqual({ sideEffecting: false });
  });
});
