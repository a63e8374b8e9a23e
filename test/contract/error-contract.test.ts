// The reference server against its error contract (contract-table.ts): for every dependency fault kind and the
// model-side cases, the answer's form, category, errorCode, retryable, retryAfterMs, requestId and effects, and
// no planted secret in anything the model sees. Also: the README's table is generated from the same rows.
// It runs against both protocol front ends: SDK 1.32's (2025-11-25, SDK 1.32 client) and SDK 2.4's (2026-07-28,
// SDK 2.4 client pinned), each client through the harness's own Connection (the policies' view of either SDK).
import { readFileSync } from 'node:fs';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findCanaries } from '../../mocks/canaries.ts';
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import { visibleText } from '../../src/client/attempt.ts';
import { classifyError } from '../../src/client/classify.ts';
import { Connection } from '../../src/client/connection.ts';
import type { McpClient } from '../../src/client/mcp-client.ts';
import type { FrontEnd } from '../../src/core/front-end.ts';
import { MODERN_VERSION } from '../../src/core/pairing.ts';
import { TRACE_META_KEY } from '../../src/core/wire.ts';
import { ServerHandle } from '../../src/targets/child-target.ts';
import { errorOf, key, payment } from '../server/helpers.ts';
import { CONTRACT, contractMarkdown, README_END, README_START } from './contract-table.ts';

const FRONT_ENDS: [FrontEnd, string][] = [
  ['sdk1', 'SDK 1.32 front end, SDK 1.32 client (2025-11-25)'],
  ['sdk2', `SDK 2.4 front end, SDK 2.4 client pinned to ${MODERN_VERSION}`],
];

const connections: Connection[] = [];
async function open(url: string, frontEnd: FrontEnd): Promise<Connection> {
  const connection = await Connection.open({
    url,
    ...(frontEnd === 'sdk2' && { sdk2: { negotiation: { pin: MODERN_VERSION } } }),
  });
  connections.push(connection);
  return connection;
}
const connect = async (url: string, frontEnd: FrontEnd): Promise<McpClient> => (await open(url, frontEnd)).client;

function call(client: McpClient, name: string, args: Record<string, unknown>, traceId?: string) {
  return client.callTool(
    { name, arguments: args, ...(traceId && { _meta: { [TRACE_META_KEY]: traceId } }) },
    undefined,
    { timeout: 15_000 },
  ) as Promise<CallToolResult>;
}

describe.each(FRONT_ENDS)('error contract of the reference server: %s (%s)', (frontEnd) => {
  let server: ServerHandle;
  beforeAll(async () => {
    server = await ServerHandle.start({ seed: 5, dependencyTimeoutMs: 500, frontEnd });
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.close()));
    await server.reset();
  });

  it('speaks the era of the front end (the SDK 2.4 client pinned, or SDK 1.32 on 2025-11-25)', async () => {
    const connection = await open(server.url, frontEnd);
    expect(connection.protocolVersion).toBe(frontEnd === 'sdk2' ? MODERN_VERSION : '2025-11-25');
  });

  it.each(CONTRACT.map((row) => [row.fault, row] as const))('%s', async (_name, row) => {
    if (row.inject) await server.setDependencyFaults([{ id: 'c', ...row.inject } as DependencyFaultSpecInput]);
    const client = await connect(server.url, frontEnd);
    const args =
      row.tool === 'search_documents' ? { query: 'refund', ...row.args } : { ...payment(key('ct')), ...row.args };
    if (row.answer === 'JSON-RPC error -32602') {
      const error = await call(client, row.tool, args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).data).toMatchObject({ availableTools: expect.arrayContaining(['create_payment']) });
      const classified = classifyError(error);
      expect([classified.category, classified.errorCode, classified.retryable]).toEqual([
        row.category,
        row.errorCode,
        row.retryable,
      ]);
      expect(findCanaries(visibleText(undefined, error))).toEqual([]);
    } else {
      const result = await call(client, row.tool, args, 'op-contract');
      expect(result.isError).toBe(true);
      const error = errorOf(result);
      expect(error.category).toBe(row.category);
      expect(error.errorCode).toBe(row.errorCode);
      expect(error.retryable).toBe(row.retryable);
      expect(error.requestId).toMatch(/^req_/);
      if (row.retryAfterMs) {
        expect(error.retryAfterMs).toBeGreaterThanOrEqual(row.retryAfterMs[0]);
        expect(error.retryAfterMs).toBeLessThanOrEqual(row.retryAfterMs[1]);
      } else expect(error.retryAfterMs).toBeUndefined();
      expect(error.details?.uncertain === true).toBe(row.uncertain === true);
      // A validation error says which fields were wrong.
      expect(row.category !== 'VALIDATION' || (error.fieldErrors?.length ?? 0) > 0, row.errorCode).toBe(true);
      expect(findCanaries(visibleText(result))).toEqual([]);
    }
    // Effects land in the ledger before the answer; a late one (commit-then-delay) has landed by now too.
    expect(await server.ledger()).toHaveLength(row.effects);
  });

  it('negative control: a leaky server does let the planted secrets through, so the scan can fire', async () => {
    const leaky = await ServerHandle.start({ seed: 5, dependencyTimeoutMs: 500, leaky: true, frontEnd });
    try {
      await leaky.setDependencyFaults([{ id: 'l', dependency: 'payments', kind: 'leak-canary' }]);
      const c = await connect(leaky.url, frontEnd);
      const result = await call(c, 'create_payment', payment(key('leak')));
      expect(findCanaries(visibleText(result)).length).toBeGreaterThan(0);
    } finally {
      await leaky.stop();
    }
  });
});

describe('README', () => {
  it('documents the contract with the table generated from contract-table.ts', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf(README_START);
    const end = readme.indexOf(README_END);
    expect(start, 'README has the error-contract markers').toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(readme.slice(start + README_START.length, end).trim()).toBe(contractMarkdown());
  });
});
