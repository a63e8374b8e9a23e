// The API answers a proxy from text kept per toxic (GET /proxies repeats every toxic of every proxy). The text must
// be what serializing the proxy afresh gives after every change, or a client would read a toxic as it was.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type EmbeddedToxiproxy, startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';
import { addToxic, createProxy, http, startUpstream, type Upstream } from './helpers.ts';

let server: EmbeddedToxiproxy;
let upstream: Upstream;

beforeAll(async () => {
  server = await startEmbeddedToxiproxy();
  upstream = await startUpstream();
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

/** Every way the API shows proxy `name`, each equal to serializing it afresh. */
async function expectFresh(name: string): Promise<void> {
  const fresh = JSON.stringify(server.proxies.get(name).json());
  expect((await http(server.url, 'GET', `/proxies/${name}`)).text).toBe(fresh);
  expect((await http(server.url, 'GET', '/proxies')).text).toContain(`${JSON.stringify(name)}:${fresh}`);
}

it('a proxy reads as serialized afresh after its toxics are added, changed and removed', async () => {
  await createProxy(server.url, 'text', upstream.port);
  await addToxic(server.url, 'text', { name: 'slow', type: 'latency', attributes: { latency: 10 } });
  await addToxic(server.url, 'text', { name: 'cut', type: 'timeout', stream: 'upstream', attributes: { timeout: 5 } });
  await expectFresh('text');

  const changed = await http(server.url, 'PATCH', '/proxies/text/toxics/slow', {
    attributes: { jitter: 3 },
    toxicity: 0.5,
  });
  expect(changed.status).toBe(200);
  const index = (await http(server.url, 'GET', '/proxies')).json();
  expect(index.text.toxics.find((toxic: { name: string }) => toxic.name === 'slow')).toEqual({
    attributes: { latency: 10, jitter: 3 },
    name: 'slow',
    type: 'latency',
    stream: 'downstream',
    toxicity: 0.5,
  });
  await expectFresh('text');

  await http(server.url, 'PATCH', '/proxies/text', { enabled: false });
  expect((await http(server.url, 'DELETE', '/proxies/text/toxics/cut')).status).toBe(204);
  await expectFresh('text');
  expect((await http(server.url, 'GET', '/proxies/text')).json()).toMatchObject({
    enabled: false,
    toxics: [{ name: 'slow' }],
  });
});
