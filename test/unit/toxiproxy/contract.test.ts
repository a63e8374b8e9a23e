// The HTTP API contract of Toxiproxy 2.12 (api.go, toxic_collection.go): routes, statuses, bodies, defaults and
// merge rules. Runs against the embedded server and, with TOXIPROXY_URL, against a real Toxiproxy.
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  OwnedProxies,
  RESET_SKIP,
  startUpstream,
  type Target,
  targetSpecs,
  targetTitle,
  type Upstream,
} from './helpers.ts';

const ERROR_TYPE = 'text/plain; charset=utf-8';

for (const spec of targetSpecs) {
  describe.skipIf(spec.skip)(targetTitle(spec, 'Toxiproxy HTTP API contract'), () => {
    let target: Target;
    let upstream: Upstream;
    const owned = new OwnedProxies(() => target, 'contract');
    const upstreamAddress = () => `127.0.0.1:${upstream.port}`;

    beforeAll(async () => {
      target = await spec.start();
      upstream = await startUpstream();
    });
    afterEach(() => owned.cleanup());
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
      const name = owned.name('create');
      const response = await owned.http('POST', '/proxies', {
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
        Logger: {},
        toxics: [],
      });
      expect(body.listen).not.toBe('127.0.0.1:0');
      expect(response.headers.get('x-toxiproxy-request-id')).toBeTruthy();
    });

    it('serializes a proxy as Toxiproxy 2.12 does everywhere: fields in its order, with "Logger":{}', async () => {
      const name = owned.name('shape');
      const other = owned.name('shape');
      // Go marshals the embedded Proxy struct (tagged fields, then the untagged exported Logger, a struct with no
      // exported fields) and then the toxics, with no whitespace and no trailing newline.
      const exact = (proxy: { listen: string; upstream: string; enabled: boolean }, label: string) =>
        `{"name":"${label}","listen":"${proxy.listen}","upstream":"${proxy.upstream}","enabled":${proxy.enabled},"Logger":{},"toxics":[]}`;
      const created = await owned.http('POST', '/proxies', {
        name,
        listen: '127.0.0.1:0',
        upstream: upstreamAddress(),
      });
      const proxy = created.json();
      expect(created.text).toBe(exact(proxy, name));
      expect((await owned.http('GET', `/proxies/${name}`)).text).toBe(exact(proxy, name));
      const patched = await owned.http('PATCH', `/proxies/${name}`, { enabled: false });
      expect(patched.text).toBe(exact({ ...proxy, enabled: false }, name));
      const posted = await owned.http('POST', `/proxies/${name}`, { enabled: false });
      expect(posted.text).toBe(exact({ ...proxy, enabled: false }, name));
      const populated = await owned.http('POST', '/populate', [
        { name: other, listen: '127.0.0.1:0', upstream: upstreamAddress(), enabled: false },
      ]);
      expect(populated.status).toBe(201);
      expect(populated.text).toBe(
        `{"proxies":[${exact({ listen: '127.0.0.1:0', upstream: upstreamAddress(), enabled: false }, other)}]}`,
      );
      const index = (await owned.http('GET', '/proxies')).text;
      expect(index).toContain(`"${name}":${exact({ ...proxy, enabled: false }, name)}`);
      // With a toxic the toxics array follows Logger.
      await owned.http('PATCH', `/proxies/${name}`, { enabled: true });
      await owned.addToxic(name, { type: 'noop' });
      const withToxic = (await owned.http('GET', `/proxies/${name}`)).json();
      expect(Object.keys(withToxic)).toEqual(['name', 'listen', 'upstream', 'enabled', 'Logger', 'toxics']);
      expect(withToxic.Logger).toEqual({});
      expect(withToxic.toxics).toHaveLength(1);
    });

    it('populate with an object body: 400 bad request body from json.Decoder, as upstream', async () => {
      const response = await owned.http('POST', '/populate', { name: owned.name('obj'), upstream: upstreamAddress() });
      expect(response.status).toBe(400);
      expect(response.contentType).toBe('application/json');
      expect(JSON.parse(response.text)).toEqual({
        error:
          'bad request body: json: cannot unmarshal object into Go value of type []struct { toxiproxy.Proxy; Enabled *bool "json:\\"enabled\\"" }',
        status: 400,
        proxies: null,
      });
      expect(await owned.list()).toEqual({});
    });

    it("reads a body's first JSON value as json.Decoder does: what follows is ignored, malformed is in Go's words", async () => {
      const name = owned.name('first');
      const body = `{"name":"${name}","upstream":"${upstreamAddress()}","listen":"127.0.0.1:0"}`;
      const trailing = await owned.http('POST', '/proxies', `${body} and then some`);
      expect(trailing.status).toBe(201);
      expect(trailing.json().name).toBe(name);
      const malformed: [string, string][] = [
        ['{', 'unexpected EOF'],
        ['{"name":"x",}', "invalid character '}' looking for beginning of object key string"],
        ['{"name" "x"}', `invalid character '"' after object key`],
        ['{"name":"x" "upstream":1}', `invalid character '"' after object key:value pair`],
        ['{"name":tru}', "invalid character '}' in literal true (expecting 'e')"],
        ['{"name":"\\q"}', "invalid character 'q' in string escape code"],
        ['{"name":-x}', "invalid character 'x' in numeric literal"],
        ['x', "invalid character 'x' looking for beginning of value"],
      ];
      for (const [text, error] of malformed) {
        expectError(await owned.http('POST', '/proxies', text), 400, `bad request body: ${error}`);
      }
    });

    it('rejects a proxy without name or upstream (400), a duplicate (409), a taken port (500)', async () => {
      expectError(
        await owned.http('POST', '/proxies', { upstream: upstreamAddress() }),
        400,
        'missing required field: name',
      );
      expectError(
        await owned.http('POST', '/proxies', { name: owned.name('x') }),
        400,
        'missing required field: upstream',
      );
      const name = owned.name('dup');
      await owned.createProxy(name, upstream.port);
      expectError(
        await owned.http('POST', '/proxies', { name, listen: '127.0.0.1:0', upstream: upstreamAddress() }),
        409,
        'proxy already exists',
      );
      const taken: Server = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as { port: number }).port;
      try {
        const response = await owned.http('POST', '/proxies', {
          name: owned.name('taken'),
          listen: `127.0.0.1:${port}`,
          upstream: upstreamAddress(),
        });
        expectError(response, 500, `listen tcp 127.0.0.1:${port}: bind: address already in use`);
      } finally {
        taken.close();
      }
      const bad = await owned.http('POST', '/proxies', '');
      expectError(bad, 400, 'bad request body: EOF');
    });

    it('creates a disabled proxy when enabled is false', async () => {
      const name = owned.name('disabled');
      const response = await owned.http('POST', '/proxies', {
        name,
        listen: '127.0.0.1:0',
        upstream: upstreamAddress(),
        enabled: false,
      });
      expect(response.status).toBe(201);
      expect(response.json().enabled).toBe(false);
    });

    it('lists proxies keyed by name and shows one; 404 for an unknown proxy', async () => {
      const a = owned.name('a');
      const b = owned.name('b');
      await owned.createProxy(a, upstream.port);
      await owned.createProxy(b, upstream.port);
      const list = await owned.http('GET', '/proxies');
      expect(list.status).toBe(200);
      const mine = await owned.list();
      expect(Object.keys(mine).sort()).toEqual([a, b].sort());
      expect(mine[a].name).toBe(a);
      const show = await owned.http('GET', `/proxies/${a}`);
      expect(show.status).toBe(200);
      expect(show.json()).toMatchObject({ name: a, enabled: true, toxics: [] });
      expectError(await owned.http('GET', `/proxies/${owned.name('missing')}`), 404, 'proxy not found');
    });

    it('merges a proxy update: missing fields keep their values (PATCH and deprecated POST)', async () => {
      const name = owned.name('upd');
      await owned.createProxy(name, upstream.port);
      const before = (await owned.http('GET', `/proxies/${name}`)).json();
      const patched = await owned.http('PATCH', `/proxies/${name}`, { enabled: false });
      expect(patched.status).toBe(200);
      expect(patched.json()).toEqual({ ...before, enabled: false });
      const posted = await owned.http('POST', `/proxies/${name}`, { enabled: true });
      expect(posted.status).toBe(200);
      expect(posted.json()).toMatchObject({ listen: before.listen, upstream: before.upstream, enabled: true });
      const moved = await owned.http('PATCH', `/proxies/${name}`, { upstream: '127.0.0.1:1' });
      expect(moved.json()).toMatchObject({ upstream: '127.0.0.1:1', enabled: true });
      expectError(
        await owned.http('PATCH', `/proxies/${owned.name('missing')}`, { enabled: false }),
        404,
        'proxy not found',
      );
    });

    it('deletes with 204 and an empty body, then 404', async () => {
      const name = owned.name('del');
      await owned.createProxy(name, upstream.port);
      const response = await owned.http('DELETE', `/proxies/${name}`);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expectError(await owned.http('DELETE', `/proxies/${name}`), 404, 'proxy not found');
    });

    it('creates a toxic with 200 and the defaults stream=downstream, toxicity=1, name=<type>_<stream>', async () => {
      const name = owned.name('tox');
      await owned.createProxy(name, upstream.port);
      const response = await owned.http('POST', `/proxies/${name}/toxics`, {
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
      const upstreamToxic = await owned.http('POST', `/proxies/${name}/toxics`, {
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
      const list = await owned.http('GET', `/proxies/${name}/toxics`);
      expect(list.status).toBe(200);
      // Upstream chain first, then downstream.
      expect(list.json().map((toxic: { name: string }) => toxic.name)).toEqual([
        'limit_data_upstream',
        'latency_downstream',
      ]);
      expect((await owned.http('GET', `/proxies/${name}`)).json().toxics).toHaveLength(2);
    });

    it('holds toxicity as a float32: rounded, printed as Go prints a float32, refused past its range', async () => {
      const name = owned.name('f32');
      await owned.createProxy(name, upstream.port);
      const created = async (toxicity: number, toxic: string) =>
        (await owned.http('POST', `/proxies/${name}/toxics`, { name: toxic, type: 'latency', toxicity })).text;
      // Raw text, since a JSON parse would hide the digits: 1/3 has 8 digits as a float32, 5e-324 is 0.
      expect(await created(1 / 3, 'third')).toContain('"toxicity":0.33333334}');
      expect(await created(5e-324, 'tiny')).toContain('"toxicity":0}');
      expect(await created(0.1, 'tenth')).toContain('"toxicity":0.1}');
      expectError(
        await owned.http('POST', `/proxies/${name}/toxics`, { type: 'latency', toxicity: 1e39 }),
        400,
        'bad request body: json: cannot unmarshal number 1e+39 into Go struct field ToxicWrapper.toxicity of type float32',
      );
    });

    it('rejects bad toxics: invalid type, invalid stream, duplicate name across directions, unknown proxy', async () => {
      const name = owned.name('badtox');
      await owned.createProxy(name, upstream.port);
      expectError(await owned.http('POST', `/proxies/${name}/toxics`, { type: 'down' }), 400, 'invalid toxic type');
      expectError(
        await owned.http('POST', `/proxies/${name}/toxics`, { type: 'latency', stream: 'sideways' }),
        400,
        'stream was invalid, can be either upstream or downstream',
      );
      await owned.http('POST', `/proxies/${name}/toxics`, { name: 'shared', type: 'latency', stream: 'upstream' });
      expectError(
        await owned.http('POST', `/proxies/${name}/toxics`, {
          name: 'shared',
          type: 'bandwidth',
          stream: 'downstream',
        }),
        409,
        'toxic already exists',
      );
      expectError(
        await owned.http('POST', `/proxies/${owned.name('missing')}/toxics`, { type: 'latency' }),
        404,
        'proxy not found',
      );
    });

    it('accepts a stream in any case and keeps its spelling', async () => {
      const name = owned.name('case');
      await owned.createProxy(name, upstream.port);
      const response = await owned.http('POST', `/proxies/${name}/toxics`, { type: 'noop', stream: 'UpStream' });
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({ name: 'noop_UpStream', stream: 'UpStream', attributes: {} });
    });

    it('shows, merges updates into, and deletes a toxic', async () => {
      const name = owned.name('toxupd');
      await owned.createProxy(name, upstream.port);
      await owned.http('POST', `/proxies/${name}/toxics`, {
        type: 'latency',
        toxicity: 0.25,
        attributes: { latency: 800, jitter: 20 },
      });
      const path = `/proxies/${name}/toxics/latency_downstream`;
      expect((await owned.http('GET', path)).json()).toMatchObject({
        toxicity: 0.25,
        attributes: { latency: 800, jitter: 20 },
      });
      const patched = await owned.http('PATCH', path, { attributes: { latency: 50 } });
      expect(patched.status).toBe(200);
      expect(patched.json()).toEqual({
        attributes: { latency: 50, jitter: 20 },
        name: 'latency_downstream',
        type: 'latency',
        stream: 'downstream',
        toxicity: 0.25,
      });
      const posted = await owned.http('POST', path, { toxicity: 1 });
      expect(posted.json()).toMatchObject({ toxicity: 1, attributes: { latency: 50, jitter: 20 } });
      expectError(
        await owned.http('PATCH', `/proxies/${name}/toxics/missing`, { toxicity: 1 }),
        404,
        'toxic not found',
      );
      expectError(await owned.http('GET', `/proxies/${name}/toxics/missing`), 404, 'toxic not found');
      const deleted = await owned.http('DELETE', path);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expectError(await owned.http('DELETE', path), 404, 'toxic not found');
    });

    it('populates: 201 with the proxies, idempotent for equal addresses, validates every entry first', async () => {
      const a = owned.name('pop');
      const b = owned.name('pop');
      const first = await owned.http('POST', '/populate', [
        { name: a, listen: '127.0.0.1:0', upstream: upstreamAddress() },
        { name: b, listen: '127.0.0.1:0', upstream: upstreamAddress(), enabled: false },
      ]);
      expect(first.status).toBe(201);
      const proxies = first.json().proxies;
      expect(proxies.map((proxy: { name: string }) => proxy.name)).toEqual([a, b]);
      expect(proxies[1].enabled).toBe(false);
      await owned.http('POST', `/proxies/${a}/toxics`, { type: 'noop' });
      // Same listen and upstream: the existing proxy stays, toxics included.
      const again = await owned.http('POST', '/populate', [
        { name: a, listen: proxies[0].listen, upstream: upstreamAddress() },
      ]);
      expect(again.status).toBe(201);
      expect(again.json().proxies[0].toxics).toHaveLength(1);
      // A different upstream replaces it.
      const replaced = await owned.http('POST', '/populate', [
        { name: a, listen: proxies[0].listen, upstream: '127.0.0.1:1' },
      ]);
      expect(replaced.json().proxies[0]).toMatchObject({ upstream: '127.0.0.1:1', toxics: [] });
      const invalid = await owned.http('POST', '/populate', [
        { name: owned.name('ok'), upstream: upstreamAddress() },
        { upstream: upstreamAddress() },
      ]);
      expect(invalid.status).toBe(400);
      expect(invalid.json()).toEqual({ error: 'missing required field: name at proxy 2', status: 400, proxies: null });
      expect(Object.keys(await owned.list()).sort()).toEqual([a, b].sort());
    });

    it.skipIf(spec.shared)(
      `resets with 204: every toxic removed, every proxy enabled again (${RESET_SKIP})`,
      async () => {
        const name = owned.name('reset');
        await owned.createProxy(name, upstream.port);
        await owned.http('POST', `/proxies/${name}/toxics`, { type: 'latency', attributes: { latency: 5 } });
        await owned.http('PATCH', `/proxies/${name}`, { enabled: false });
        const response = await owned.http('POST', '/reset');
        expect(response.status).toBe(204);
        expect(response.text).toBe('');
        expect((await owned.http('GET', `/proxies/${name}`)).json()).toMatchObject({ enabled: true, toxics: [] });
      },
    );

    it('answers a request no route takes as gorilla/mux does, before hlog gives it a request id', async () => {
      const unknownPath = await owned.http('GET', '/nope');
      expect(unknownPath.status).toBe(404);
      expect(unknownPath.text).toBe('404 page not found\n');
      expect(unknownPath.contentType).toBe('text/plain; charset=utf-8');
      expect(unknownPath.headers.get('x-toxiproxy-request-id')).toBeNull();
      const unknownMethod = await owned.http('DELETE', '/version');
      expect(unknownMethod.status).toBe(405);
      expect(unknownMethod.text).toBe('');
      expect(unknownMethod.headers.get('content-length')).toBe('0');
      expect(unknownMethod.headers.get('x-toxiproxy-request-id')).toBeNull();
      expect((await owned.http('GET', '/version')).headers.get('x-toxiproxy-request-id')).toMatch(/^[0-9a-v]{20}$/);
    });

    it('answers /version with JSON and refuses browsers with 403', async () => {
      const version = await owned.http('GET', '/version');
      expect(version.status).toBe(200);
      expect(version.contentType).toBe('application/json;charset=utf-8');
      expect(version.json().version).toMatch(/^\d+\.\d+\.\d+/);
      const browser = await owned.http('GET', '/proxies', undefined, { 'User-Agent': 'Mozilla/5.0 (X11)' });
      expect(browser.status).toBe(403);
      expect(browser.text).toBe('User agent not allowed\n');
    });
  });
}
