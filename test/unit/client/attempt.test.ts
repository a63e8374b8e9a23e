// What an attempt records of what the model sees: the whole text and structured content of a result (isError
// ones too), a JSON-RPC error's message and data, and the progress and log notifications that arrived on the
// attempt's own stream. Against a real SDK server over Streamable HTTP on loopback, in this process.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptStep } from '../../../src/client/attempt.ts';
import { Connection } from '../../../src/client/connection.ts';
import type { LogicalCall, PolicySession } from '../../../src/client/policy.ts';
import { opRun } from './fakes.ts';
import { statelessServer } from './stateless-server.ts';

const M = {
  text: 'mkTEXT1',
  structured: 'mkSTRUCT2',
  progress: 'mkPROGRESS3',
  log: 'mkLOG4',
  data: 'mkDATA5',
  multiline: 'mkMULTI6',
};

function mcpServer(): Server {
  const server = new Server({ name: 'chatty', version: '1' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'refuse') {
      throw new McpError(ErrorCode.InvalidParams, 'refused', { hint: `${M.data} at /srv/app\n  line 2` });
    }
    const progressToken = request.params._meta?.progressToken;
    if (progressToken !== undefined) {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: 1, total: 2, message: `working with ${M.progress}` },
      });
    }
    await extra.sendNotification({
      method: 'notifications/message',
      params: { level: 'error', logger: 'db', data: { query: `SELECT ${M.log}` } },
    });
    return {
      isError: true,
      content: [{ type: 'text', text: `failed: ${M.text}` }],
      structuredContent: {
        errorCode: 'X.Y',
        message: M.structured,
        details: { stack: `Error\n    at ${M.multiline} (x.js:1)` },
      },
    };
  });
  return server;
}

let server: Awaited<ReturnType<typeof statelessServer>>;
let url: string;

beforeAll(async () => {
  server = await statelessServer(() => mcpServer());
  url = server.url;
});

afterAll(() => server.close());

async function oneAttempt(tool: string, call: Partial<LogicalCall> = {}) {
  const connection = await Connection.open({ url });
  const session: PolicySession = { get: async () => ({ connection, generation: 0 }), renew: async () => {} };
  const { op, attempts } = opRun(session, {
    call: { opId: 'op-00003', tool, args: {}, sideEffecting: false, ...call },
  });
  await attemptStep(op)({ signal: new AbortController().signal }).catch(() => undefined);
  await connection.close();
  expect(attempts).toHaveLength(1);
  return attempts[0];
}

describe('attempt record: everything the model sees', () => {
  it('keeps an isError result whole (text and structured content) and the notifications on its stream', async () => {
    const a = await oneAttempt('chatty');
    expect(a.ok).toBe(false);
    expect(a.visible).toContain(M.text);
    expect(a.visible).toContain(M.structured);
    expect(a.visible).toContain(M.multiline);
    const notes = (a.notifications ?? []).join('\n');
    expect(notes).toContain(M.progress);
    expect(notes).toContain(M.log);
    // Neither is in the 300-character message the report shows.
    expect(a.message ?? '').not.toContain(M.progress);
  });

  it("keeps a JSON-RPC error's message and data", async () => {
    const a = await oneAttempt('refuse');
    expect(a.ok).toBe(false);
    expect(a.visible).toContain('refused');
    expect(a.visible).toContain(M.data);
  });
});

describe('attempt record: what trace.jsonl needs to tell the story', () => {
  it('carries the tool, the arguments as sent, the idempotency key and the HTTP status', async () => {
    const a = await oneAttempt('chatty', {
      args: { amount_cents: 100 },
      sideEffecting: true,
      idempotencyArg: 'idempotency_key',
    });
    expect(a).toMatchObject({ tool: 'chatty', idempotencyKey: 'idem-op-00003', httpStatus: 200 });
    expect(a.args).toEqual({ amount_cents: 100, idempotency_key: 'idem-op-00003' });
  });

  it('has no idempotency key when the tool takes none', async () => {
    const a = await oneAttempt('chatty');
    expect(a.idempotencyKey).toBeUndefined();
    expect(a.args).toEqual({});
  });
});
