// The same tools over stdio.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { toolErrorOf } from '../../src/core/taxonomy.ts';
import { StdioEdgeController } from '../../src/faults/edge/stdio/controller.ts';
import { connectStdio, stdioSession } from '../../src/run/environment.ts';
import { StdioTarget } from '../../src/targets/stdio-target.ts';

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('stdio entry point', () => {
  it('serves the tools with msw dependencies and the control requests from --control', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        fileURLToPath(new URL('../../bin/run-ts.js', import.meta.url)),
        fileURLToPath(new URL('../../src/server/stdio-main.ts', import.meta.url)),
        '--seed',
        '3',
        '--control',
        JSON.stringify([
          { op: 'setDependencyFaults', input: [{ id: 'down', dependency: 'search', kind: 'status', status: 503 }] },
        ]),
      ],
      stderr: 'ignore',
    });
    client = new Client({ name: 'stdio-test', version: '0.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(6);
    const paid = await client.callTool({
      name: 'create_payment',
      arguments: { customer_id: 'cus_1', amount_cents: 500, currency: 'EUR', idempotency_key: 'stdio-key-0001' },
    });
    expect(paid.structuredContent).toMatchObject({ status: 'succeeded', currency: 'EUR' });
    const search = await client.callTool({ name: 'search_documents', arguments: { query: '*' } });
    expect(toolErrorOf(search as any)?.errorCode).toBe('DEPENDENCY.UNAVAILABLE');
  });
});

describe('stdio target: a child that dies as it starts', () => {
  it('the first connect says how it ended (here killed by a signal), not a bare transport error', async () => {
    const target = new StdioTarget({ seed: 3, edge: new StdioEdgeController() });
    const spawn = target.createTransport;
    target.createTransport = () => {
      const transport = spawn() as ReturnType<typeof spawn> & { pid?: number };
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        process.kill(transport.pid!, 'SIGKILL');
      };
      return transport;
    };
    const session = stdioSession('stdio:reference', target);
    try {
      await expect(connectStdio(session, target)).rejects.toThrow(
        /^the reference stdio server exited during start-up \(signal SIGKILL\); /,
      );
    } finally {
      await session.close();
      await target.close();
    }
  }, 60_000);

  it('control: a child left alone connects', async () => {
    const target = new StdioTarget({ seed: 3, edge: new StdioEdgeController() });
    const session = stdioSession('stdio:reference', target);
    try {
      await connectStdio(session, target);
      expect(target.alive).toBe(true);
    } finally {
      await session.close();
      await target.close();
    }
  }, 60_000);
});

describe('stdio target: hits and quiescence', () => {
  it("a dependency fault's hits reach the harness on stderr and outlive the killed child", async () => {
    const target = new StdioTarget({ seed: 3, edge: new StdioEdgeController() });
    const stdio = new Client({ name: 'stdio-test', version: '0.0.0' });
    try {
      await target.desired.dependencyFaults.put({ id: 'w', dependency: 'search', kind: 'status', status: 503 });
      await target.desired.dependencyFaults.put({
        id: 'idle',
        dependency: 'notifications',
        kind: 'status',
        status: 503,
      });
      await stdio.connect(target.createTransport());
      for (const query of ['a', 'b']) await stdio.callTool({ name: 'search_documents', arguments: { query } });
      expect(await target.quiescence()).toMatchObject({ inFlight: 0 });
      expect(await target.faultHits()).toEqual({ w: 2 });
      target.kill();
      await expect.poll(() => target.alive, { timeout: 5000 }).toBe(false);
      expect(await target.faultHits()).toEqual({ w: 2 }); // from what the dead child streamed
    } finally {
      await stdio.close().catch(() => {});
      await target.close();
    }
  }, 60_000);
});

describe('stdio target: effects as they happen', () => {
  it('passes each effect on as its child streams it, once, across a crash and the next child', async () => {
    const target = new StdioTarget({ seed: 3, edge: new StdioEdgeController() });
    const heard: number[] = [];
    target.onEffect((effect) => heard.push(effect.seq));
    const pay = (c: Client, key: string) =>
      c.callTool({
        name: 'create_payment',
        arguments: { customer_id: 'cus_1', amount_cents: 500, currency: 'EUR', idempotency_key: key },
      });
    const first = new Client({ name: 'stdio-test', version: '0.0.0' });
    const second = new Client({ name: 'stdio-test', version: '0.0.0' });
    try {
      await first.connect(target.createTransport());
      await pay(first, 'stdio-stream-0001');
      await pay(first, 'stdio-stream-0002');
      // Heard from the stream alone: nothing has read the ledger yet.
      await expect.poll(() => heard.length, { timeout: 5000 }).toBe(2);
      target.kill();
      await expect.poll(() => target.alive, { timeout: 5000 }).toBe(false);
      await second.connect(target.createTransport());
      await pay(second, 'stdio-stream-0001'); // a replay: the restored record answers, no new effect
      await pay(second, 'stdio-stream-0003');
      await expect.poll(() => heard.length, { timeout: 5000 }).toBe(3);
      const ledger = await target.ledger();
      expect(ledger.map((e) => e.seq)).toEqual(heard);
      expect(heard).toHaveLength(3); // the end's sync found nothing the stream had not brought, and restored nothing twice
      expect((await target.quiescence())?.lastEffectAtMs).toBe(ledger.at(-1)?.atMs);
    } finally {
      await first.close().catch(() => {});
      await second.close().catch(() => {});
      await target.close();
    }
  }, 60_000);
});
