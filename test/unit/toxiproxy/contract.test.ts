// The HTTP API contract of Toxiproxy 2.12 (api.go, toxic_collection.go): routes, statuses, bodies, defaults and
// merge rules. Runs against the embedded server and, with TOXIPROXY_URL, against a real Toxiproxy.
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  clearProxies,
  createProxy,
  http,
  startUpstream,
  type Target,
  targetSpecs,
  targetTitle,
  type Upstream,
  uniqueName,
} from './helpers.ts';

const ERROR_TYPE = 'text/plain; charset=utf-8';

for (const spec of targetSpecs) {
  describe.skipIf(spec.skip)(targetTitle(spec, 'Toxiproxy HTTP API contract'), () => {
    let target: Target;
    let upstream: Upstream;
    let url: string;
    const upstreamAddress = () => `127.0.0.1:${upstream.port}`;

    beforeAll(async () => {
      target = await spec.start();
      url = target.url;
      upstream = await startUpstream();
    });
    afterEach(() => clearProxies(url));
    afterAll(async () => {
      await upstream?.close();
      await target?.close();
    });

    const expectError = (
      response: { status: number; contentType: string | null; text: string },
      status: number,
      error: string,
    ) => {
      expect(response.status).toBe(status);
      expect(response.contentType).toBe(ERROR_TYPE);
      expect(JSON.parse(response.text)).toEqual({ error, status });
    };

    it('creates a proxy with 201, enabled by default, reporting the real ephemeral port', async () => {
      const name = uniqueName('create');
      const response = await http(url, 'POST', '/proxies', {
        name,
        listen: '127.0.0.1:0',
        upstream: upstreamAddress(),
      });
      expect(response.status).toBe(201);
      expect(response.contentType).toMatch(/^application\/json/);
      const body = response.json();
      expect(body).toEqual({
        name,
        listen: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
        upstream: upstreamAddress(),
        enabled: true,
        toxics: [],
      });
      expect(body.listen).not.toBe('127.0.0.1:0');
      expect(response.headers.get('x-toxiproxy-request-id')).toBeTruthy();
    });

    it('rejects a proxy without name or upstream (400), a duplicate (409), a taken port (500)', async () => {
      expectError(
        await http(url, 'POST', '/proxies', { upstream: upstreamAddress() }),
        400,
        'missing required field: name',
      );
      expectError(
        await http(url, 'POST', '/proxies', { name: uniqueName('x') }),
        400,
        'missing required field: upstream',
      );
      const name = uniqueName('dup');
      await createProxy(url, name, upstream.port);
      expectError(
        await http(url, 'POST', '/proxies', { name, listen: '127.0.0.1:0', upstream: upstreamAddress() }),
        409,
        'proxy already exists',
      );
      const taken: Server = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as { port: number }).port;
      try {
        const response = await http(url, 'POST', '/proxies', {
          name: uniqueName('taken'),
          listen: `127.0.0.1:${port}`,
          upstream: upstreamAddress(),
        });
        expectError(response, 500, `listen tcp 127.0.0.1:${port}: bind: address already in use`);
      } finally {
        taken.close();
      }
      const bad = await http(url, 'POST', '/proxies', '');
      expectError(bad, 400, 'bad request body: EOF');
    });

    it('creates a disabled proxy when enabled is false', async () => {
      const name = uniqueName('disabled');
      const response = await http(url, 'POST', '/proxies', {
        name,
        listen: '127.0.0.1:0',
        upstream: upstreamAddress(),
        enabled: false,
      });
      expect(response.status).toBe(201);
      expect(response.json().enabled).toBe(false);
    });

    it('lists proxies keyed by name and shows one; 404 for an unknown proxy', async () => {
      const a = uniqueName('a');
      const b = uniqueName('b');
      await createProxy(url, a, upstream.port);
      await createProxy(url, b, upstream.port);
      const list = await http(url, 'GET', '/proxies');
      expect(list.status).toBe(200);
      expect(Object.keys(list.json()).sort()).toEqual([a, b].sort());
      expect(list.json()[a].name).toBe(a);
      const show = await http(url, 'GET', `/proxies/${a}`);
      expect(show.status).toBe(200);
      expect(show.json()).toMatchObject({ name: a, enabled: true, toxics: [] });
      expectError(await http(url, 'GET', '/proxies/nope_missing'), 404, 'proxy not found');
    });

    it('merges a proxy update: missing fields keep their values (PATCH and deprecated POST)', async () => {
      const name = uniqueName('upd');
      await createProxy(url, name, upstream.port);
      const before = (await http(url, 'GET', `/proxies/${name}`)).json();
      const patched = await http(url, 'PATCH', `/proxies/${name}`, { enabled: false });
      expect(patched.status).toBe(200);
      expect(patched.json()).toEqual({ ...before, enabled: false });
      const posted = await http(url, 'POST', `/proxies/${name}`, { enabled: true });
      expect(posted.status).toBe(200);
      expect(posted.json()).toMatchObject({ listen: before.listen, upstream: before.upstream, enabled: true });
      const moved = await http(url, 'PATCH', `/proxies/${name}`, { upstream: '127.0.0.1:1' });
      expect(moved.json()).toMatchObject({ upstream: '127.0.0.1:1', enabled: true });
      expectError(await http(url, 'PATCH', '/proxies/nope_missing', { enabled: false }), 404, 'proxy not found');
    });

    it('deletes with 204 and an empty body, then 404', async () => {
      const name = uniqueName('del');
      await createProxy(url, name, upstream.port);
      const response = await http(url, 'DELETE', `/proxies/${name}`);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expectError(await http(url, 'DELETE', `/proxies/${name}`), 404, 'proxy not found');
    });

    it('creates a toxic with 200 and the defaults stream=downstream, toxicity=1, name=<type>_<stream>', async () => {
      const name = uniqueName('tox');
      await createProxy(url, name, upstream.port);
      const response = await http(url, 'POST', `/proxies/${name}/toxics`, {
        type: 'latency',
        attributes: { latency: 10, bogus: 5 },
      });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({
        attributes: { latency: 10, jitter: 0 },
        name: 'latency_downstream',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
      });
      const upstreamToxic = await http(url, 'POST', `/proxies/${name}/toxics`, {
        type: 'limit_data',
        stream: 'upstream',
        toxicity: 0.5,
        attributes: { bytes: 7 },
      });
      expect(upstreamToxic.json()).toEqual({
        attributes: { bytes: 7 },
        name: 'limit_data_upstream',
        type: 'limit_data',
        stream: 'upstream',
        toxicity: 0.5,
      });
      const list = await http(url, 'GET', `/proxies/${name}/toxics`);
      expect(list.status).toBe(200);
      // Upstream chain first, then downstream.
      expect(list.json().map((toxic: { name: string }) => toxic.name)).toEqual([
        'limit_data_upstream',
        'latency_downstream',
      ]);
      expect((await http(url, 'GET', `/proxies/${name}`)).json().toxics).toHaveLength(2);
    });

    it('rejects bad toxics: invalid type, invalid stream, duplicate name across directions, unknown proxy', async () => {
      const name = uniqueName('badtox');
      await createProxy(url, name, upstream.port);
      expectError(await http(url, 'POST', `/proxies/${name}/toxics`, { type: 'down' }), 400, 'invalid toxic type');
      expectError(
        await http(url, 'POST', `/proxies/${name}/toxics`, { type: 'latency', stream: 'sideways' }),
        400,
        'stream was invalid, can be either upstream or downstream',
      );
      await http(url, 'POST', `/proxies/${name}/toxics`, { name: 'shared', type: 'latency', stream: 'upstream' });
      expectError(
        await http(url, 'POST', `/proxies/${name}/toxics`, { name: 'shared', type: 'bandwidth', stream: 'downstream' }),
        409,
        'toxic already exists',
      );
      expectError(await http(url, 'POST', '/proxies/nope_missing/toxics', { type: 'latency' }), 404, 'proxy not found');
    });

    it('accepts a stream in any case and keeps its spelling', async () => {
      const name = uniqueName('case');
      await createProxy(url, name, upstream.port);
      const response = await http(url, 'POST', `/proxies/${name}/toxics`, { type: 'noop', stream: 'UpStream' });
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({ name: 'noop_UpStream', stream: 'UpStream', attributes: {} });
    });

    it('shows, merges updates into, and deletes a toxic', async () => {
      const name = uniqueName('toxupd');
      await createProxy(url, name, upstream.port);
      await http(url, 'POST', `/proxies/${name}/toxics`, {
        type: 'latency',
        toxicity: 0.25,
        attributes: { latency: 800, jitter: 20 },
      });
      const path = `/proxies/${name}/toxics/latency_downstream`;
      expect((await http(url, 'GET', path)).json()).toMatchObject({
        toxicity: 0.25,
        attributes: { latency: 800, jitter: 20 },
      });
      const patched = await http(url, 'PATCH', path, { attributes: { latency: 50 } });
      expect(patched.status).toBe(200);
      expect(patched.json()).toEqual({
        attributes: { latency: 50, jitter: 20 },
        name: 'latency_downstream',
        type: 'latency',
        stream: 'downstream',
        toxicity: 0.25,
      });
      const posted = await http(url, 'POST', path, { toxicity: 1 });
      expect(posted.json()).toMatchObject({ toxicity: 1, attributes: { latency: 50, jitter: 20 } });
      expectError(await http(url, 'PATCH', `/proxies/${name}/toxics/missing`, { toxicity: 1 }), 404, 'toxic not found');
      expectError(await http(url, 'GET', `/proxies/${name}/toxics/missing`), 404, 'toxic not found');
      const deleted = await http(url, 'DELETE', path);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expectError(await http(url, 'DELETE', path), 404, 'toxic not found');
    });

    it('populates: 201 with the proxies, idempotent for equal addresses, validates every entry first', async () => {
      const a = uniqueName('pop');
      const b = uniqueName('pop');
      const first = await http(url, 'POST', '/populate', [
        { name: a, listen: '127.0.0.1:0', upstream: upstreamAddress() },
        { name: b, listen: '127.0.0.1:0', upstream: upstreamAddress(), enabled: false },
      ]);
      expect(first.status).toBe(201);
      const proxies = first.json().proxies;
      expect(proxies.map((proxy: { name: string }) => proxy.name)).toEqual([a, b]);
      expect(proxies[1].enabled).toBe(false);
      await http(url, 'POST', `/proxies/${a}/toxics`, { type: 'noop' });
      // Same listen and upstream: the existing proxy stays, toxics included.
      const again = await http(url, 'POST', '/populate', [
        { name: a, listen: proxies[0].listen, upstream: upstreamAddress() },
      ]);
      expect(again.status).toBe(201);
      expect(again.json().proxies[0].toxics).toHaveLength(1);
      // A different upstream replaces it.
      const replaced = await http(url, 'POST', '/populate', [
        { name: a, listen: proxies[0].listen, upstream: '127.0.0.1:1' },
      ]);
      expect(replaced.json().proxies[0]).toMatchObject({ upstream: '127.0.0.1:1', toxics: [] });
      const invalid = await http(url, 'POST', '/populate', [
        { name: uniqueName('ok'), upstream: upstreamAddress() },
        { upstream: upstreamAddress() },
      ]);
      expect(invalid.status).toBe(400);
      expect(invalid.json()).toEqual({ error: 'missing required field: name at proxy 2', status: 400, proxies: null });
      expect(Object.keys((await http(url, 'GET', '/proxies')).json()).sort()).toEqual([a, b].sort());
    });

    it('resets with 204: every toxic removed, every proxy enabled again', async () => {
      const name = uniqueName('reset');
      await createProxy(url, name, upstream.port);
      await http(url, 'POST', `/proxies/${name}/toxics`, { type: 'latency', attributes: { latency: 5 } });
      await http(url, 'PATCH', `/proxies/${name}`, { enabled: false });
      const response = await http(url, 'POST', '/reset');
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await http(url, 'GET', `/proxies/${name}`)).json()).toMatchObject({ enabled: true, toxics: [] });
    });

    it('answers /version with JSON and refuses browsers with 403', async () => {
      const version = await http(url, 'GET', '/version');
      expect(version.status).toBe(200);
      expect(version.contentType).toBe('application/json;charset=utf-8');
      expect(version.json().version).toMatch(/^\d+\.\d+\.\d+/);
      const browser = await http(url, 'GET', '/proxies', undefined, { 'User-Agent': 'Mozilla/5.0 (X11)' });
      expect(browser.status).toBe(403);
      expect(browser.text).toBe('User agent not allowed\n');
    });
  });
}
