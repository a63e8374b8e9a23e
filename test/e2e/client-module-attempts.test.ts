// What a client module's op counts as attempts: every tools/call it sends, and every (re)connect it makes during
// the op that the server never answered. The example module (examples/own-client/retrying-client.ts) gets two
// transports to a loopback port nothing listens on (a real ECONNREFUSED on the wire), then one to the reference
// server: its op is three attempts, two refused and one ok, so it is a retried op that recovered. The control: a
// module that never retries, on the refused port, is one failed attempt.
import { createServer } from 'node:net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import createRetryingClient from '../../examples/own-client/retrying-client.ts';
import { type ClientFactory, modulePolicy } from '../../src/client/module-client.ts';
import type { RunSetup } from '../../src/client/policy.ts';
import type { AttemptRecord } from '../../src/core/history.ts';
import { RandomStream } from '../../src/core/random.ts';
import { ServerHandle } from '../../src/targets/child-target.ts';
import { SETTINGS } from '../unit/client/fakes.ts';

let server: ServerHandle;
let refusedUrl: string;
beforeAll(async () => {
  server = await ServerHandle.start({ seed: 1 });
  // A port that was just free: connecting to it is refused by the kernel.
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  refusedUrl = `http://127.0.0.1:${port}/mcp`;
}, 60_000);
afterAll(() => server?.stop());

/** Transports to the refused port for the first `refused` calls, then to the reference server. */
function transports(refused: number): () => Transport {
  let made = 0;
  return () => new StreamableHTTPClientTransport(new URL(made++ < refused ? refusedUrl : server.url));
}

async function runOneOp(factory: ClientFactory, newTransport: () => Transport) {
  const attempts: AttemptRecord[] = [];
  const policy = modulePolicy(factory, newTransport);
  const run: RunSetup = {
    session: { get: () => Promise.reject(new Error('unused')), renew: async () => {} },
    client: { ...SETTINGS, attemptTimeoutMs: 3000, backoff: { initialMs: 10, maxMs: 20 } },
    serverRefreshesCredentials: true,
    traitsOf: () => ({ sideEffecting: false }),
    recordAttempt: (a) => attempts.push(a),
    recordBreakerEvent: () => {},
  };
  try {
    const op = { index: 0, opId: 'op-0', tool: 'search_documents', args: { query: 'refunds' } };
    const fields = await policy.forRun(run)(op, new RandomStream(1, 'client/op-0'));
    return { fields, attempts };
  } finally {
    await policy.close();
  }
}

describe('a client module op counts refused reconnects as attempts', () => {
  it('the example: two refused connects, then the call: three attempts, a retried op that recovered', async () => {
    const { fields, attempts } = await runOneOp(createRetryingClient as ClientFactory, transports(2));
    expect(attempts.map((a) => [a.attempt, a.ok, a.uncertain ?? false])).toEqual([
      [1, false, false],
      [2, false, false],
      [3, true, false],
    ]);
    expect(attempts.slice(0, 2).map((a) => a.category)).toEqual(['LINK', 'LINK']);
    expect(attempts.every((a) => a.tool === 'search_documents')).toBe(true);
    expect(fields).toMatchObject({ outcome: 'ok', attempts: 3, failedAttempts: 2 });
  }, 60_000);

  it('control: a module that never retries, refused: one failed attempt, not more', async () => {
    const once: ClientFactory = async ({ newTransport }) => {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const client = new Client({ name: 'once', version: '1' });
      const connected = client.connect(newTransport());
      connected.catch(() => {});
      return {
        callTool: async (p) => {
          await connected;
          return (await client.callTool(p)) as never;
        },
      };
    };
    const { fields, attempts } = await runOneOp(once, transports(1));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, ok: false, category: 'LINK', uncertain: false });
    expect(fields).toMatchObject({ outcome: 'fail', attempts: 1 });
  }, 60_000);
});
