// The library client's op results carry the replay record: an in-memory server whose create_payment says its
// first answer may have charged (details.uncertain). The naive client's replay (a fresh key) is unsafe; the
// resilient one (status pending, so it replays with the same key the reference tools honour) is not.

import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient } from '../../../src/api/client.ts';
import type { PolicyName } from '../../../src/core/policy-names.ts';

function server() {
  let calls = 0;
  const s = new McpServer({ name: 'uncertain-once', version: '1.0.0' });
  const error = {
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.UNAVAILABLE',
    message: 'maybe charged',
    requestId: 'req-1',
    retryable: true,
  };
  s.registerTool('create_payment', { inputSchema: { idempotency_key: z.string().optional() } }, async () =>
    calls++ === 0
      ? {
          isError: true,
          content: [{ type: 'text', text: 'maybe' }],
          structuredContent: { ...error, details: { uncertain: true } },
        }
      : { content: [{ type: 'text', text: 'ok' }] },
  );
  s.registerTool('get_payment_status', { inputSchema: { idempotency_key: z.string() } }, async () => ({
    content: [{ type: 'text', text: 'pending' }],
    structuredContent: { status: 'pending' },
  }));
  return s;
}

async function callOnce(policy: PolicyName) {
  const s = server();
  const client = createClient(
    {
      transport: () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void s.connect(serverSide);
        return clientSide;
      },
    },
    { policy, client: { backoff: { initialMs: 1, maxMs: 2 } } },
  );
  try {
    return await client.call('create_payment', { customer_id: 'c1', amount_cents: 500, currency: 'EUR' });
  } finally {
    await client.close();
  }
}

describe('createClient replay record', () => {
  it('naive: the replay after the unknown outcome is unsafe', async () => {
    expect(await callOnce('naive')).toMatchObject({
      outcome: 'ok',
      retries: 1,
      replaysAfterUnknown: 1,
      unsafeReplays: 1,
    });
  });

  it('resilient: the same replay with the honoured key is safe', async () => {
    const r = await callOnce('resilient');
    expect(r).toMatchObject({ outcome: 'ok', retries: 1, replaysAfterUnknown: 1 });
    expect(r.unsafeReplays).toBeUndefined();
  });
});
