// Secrets planted by the leak-canary fault never reach the model, unless the server is deliberately leaky.
import { describe, expect, it } from 'vitest';
import { CANARY_MARKERS, findCanaries } from '../../mocks/canaries.ts';
import { call, connect, key, payment, startServer } from './helpers.ts';

const canaryFault = [{ id: 'leak', dependency: '*', kind: 'leak-canary' }] as const;

describe('redaction', () => {
  it('no canary appears in a model-visible result', async () => {
    const server = await startServer();
    await server.setDependencyFaults([...canaryFault]);
    const { client } = await connect(server.url);
    for (const result of [
      await call(client, 'create_payment', payment(key('pay'))),
      await call(client, 'search_documents', { query: '*' }),
    ]) {
      expect(result.isError).toBe(true);
      expect(findCanaries(JSON.stringify(result))).toEqual([]);
    }
  });

  it('a leaky server passes them through (the negative control)', async () => {
    const server = await startServer({ leaky: true });
    await server.setDependencyFaults([...canaryFault]);
    const { client } = await connect(server.url);
    const visible = JSON.stringify(await call(client, 'create_payment', payment(key('pay'))));
    expect(findCanaries(visible).sort()).toEqual(Object.keys(CANARY_MARKERS).sort());
  });
});
