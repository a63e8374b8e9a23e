// The fixture that lets the TOXIPROXY_URL suites share one server: a file touches and deletes only the proxies
// named with its prefix. Checked against an embedded server posing as a shared one, with another file's proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedToxiproxy, startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';
import { createProxy, http, OwnedProxies, startUpstream, type Target, type Upstream } from './helpers.ts';

describe('OwnedProxies on a shared server', () => {
  let server: EmbeddedToxiproxy;
  let upstream: Upstream;
  let target: Target;
  const owned = new OwnedProxies(() => target, 'owned');
  const foreign = 'other-file-proxy';

  beforeAll(async () => {
    server = await startEmbeddedToxiproxy();
    upstream = await startUpstream();
    target = { name: 'shared', url: server.url, shared: true, close: async () => {} };
    await createProxy(server.url, foreign, upstream.port);
  });
  afterAll(async () => {
    await upstream?.close();
    await server?.close();
  });

  it('names proxies with a per-file, per-process prefix and lists only its own', async () => {
    const name = owned.name('a');
    expect(name.startsWith(`owned-${process.pid}-`)).toBe(true);
    await owned.createProxy(name, upstream.port);
    expect(Object.keys(await owned.list())).toEqual([name]);
  });

  it('refuses, before sending, any change to a proxy it does not own and POST /reset', async () => {
    const refusals = [
      owned.http('DELETE', `/proxies/${foreign}`),
      owned.http('PATCH', `/proxies/${foreign}`, { enabled: false }),
      owned.http('POST', `/proxies/${foreign}/toxics`, { type: 'noop' }),
      owned.http('DELETE', `/proxies/${foreign}/toxics/noop_downstream`),
      owned.http('POST', '/proxies', { name: foreign, upstream: 'x:1' }),
      owned.http('POST', '/populate', [
        { name: owned.name('ok'), upstream: 'x:1' },
        { name: foreign, upstream: 'x:1' },
      ]),
      owned.addToxic(foreign, { type: 'noop' }),
      owned.createProxy(foreign, upstream.port),
      owned.http('POST', '/reset'),
    ];
    for (const refusal of refusals) await expect(refusal).rejects.toThrow(/^test fixture refused/);
    expect((await http(server.url, 'GET', `/proxies/${foreign}`)).json()).toMatchObject({
      enabled: true,
      toxics: [],
    });
  });

  it('cleans up its own proxies and leaves the other file’s', async () => {
    await owned.createProxy(owned.name('b'), upstream.port);
    await owned.cleanup();
    expect(await owned.list()).toEqual({});
    expect(Object.keys((await http(server.url, 'GET', '/proxies')).json())).toEqual([foreign]);
  });

  it('allows POST /reset when the server is not shared', async () => {
    const own = new OwnedProxies(() => ({ ...target, shared: false }), 'owned');
    expect((await own.http('POST', '/reset')).status).toBe(204);
  });
});
