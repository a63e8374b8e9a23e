// The calibration's ping on the 2026-07-28 wire, which has no `ping`: a server/discover request (small answer), not
// tools/list (every tool's schema), and never counted as one of the connect's discovery probes (discover-faults and
// the protocol matrix count those). The negative control of the count: the connection used to hand out the probe
// list live, so every calibration ping would have become a probe of the connect.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../src/client/session.ts';
import { ServerHandle } from '../../src/targets/child-target.ts';

const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.allSettled(handles.splice(0).map((h) => h.stop()));
});

/** The JSON-RPC method of each request the client sent (notifications and answers to the server included). */
function methodsSent(sent: string[]): (inner: typeof fetch) => typeof fetch {
  return (inner) => (input, init) => {
    if (typeof init?.body === 'string') {
      const message = JSON.parse(init.body) as { method?: string };
      if (message.method) sent.push(message.method);
    }
    return inner(input, init);
  };
}

describe('the calibration ping on the 2026-07-28 wire', () => {
  it('sends server/discover, and the connect keeps only its own discovery probes', async () => {
    const server = await ServerHandle.start({ seed: 7, frontEnd: 'sdk2' });
    handles.push(server);
    const sent: string[] = [];
    const session = new Session({ url: server.url, wrapFetch: methodsSent(sent), sdk2: { negotiation: 'auto' } });
    try {
      const { connection } = await session.get();
      expect(connection.protocolVersion).toBe('2026-07-28');
      const probesAtConnect = connection.probes.length;
      expect(probesAtConnect).toBeGreaterThan(0); // auto negotiation probed before it chose the era
      const before = sent.length;
      for (let i = 0; i < 5; i++) await connection.client.ping();
      expect(sent.slice(before)).toEqual(Array(5).fill('server/discover'));
      expect(connection.probes).toHaveLength(probesAtConnect);
      expect(session.discoveries().flatMap((d) => d.probes)).toHaveLength(probesAtConnect);
    } finally {
      await session.close();
    }
  });
});
