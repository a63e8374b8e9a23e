// toxiproxy-node-client 4.1 drives the server through every call it offers. Its errors drop the status and the
// server's message, so failures are asserted on its "Request failed with status code N" text.
import { Toxiproxy } from 'toxiproxy-node-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  destroyOpenSockets,
  dial,
  OwnedProxies,
  RESET_SKIP,
  roundTrip,
  startUpstream,
  type Target,
  targetSpecs,
  targetTitle,
  type Upstream,
} from './helpers.ts';

for (const spec of targetSpecs) {
  describe.skipIf(spec.skip)(targetTitle(spec, 'toxiproxy-node-client 4.1'), () => {
    let target: Target;
    let upstream: Upstream;
    let client: Toxiproxy;
    // The client calls the server directly; every name it is given is owned, and cleanup deletes only those.
    const owned = new OwnedProxies(() => target, 'node-client');

    beforeAll(async () => {
      target = await spec.start();
      upstream = await startUpstream();
      client = new Toxiproxy(target.url);
    });
    afterEach(async () => {
      destroyOpenSockets();
      await owned.cleanup();
    });
    afterAll(async () => {
      await upstream?.close();
      await target?.close();
    });

    const portOf = (listen: string) => Number(listen.slice(listen.lastIndexOf(':') + 1));

    it('creates, gets, lists, updates and removes proxies', async () => {
      const name = owned.name('nc');
      const proxy = await client.createProxy({ name, listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstream.port}` });
      expect(proxy.name).toBe(name);
      expect(proxy.enabled).toBe(true);
      expect(portOf(proxy.listen)).toBeGreaterThan(0);
      expect(await roundTrip(await dial(portOf(proxy.listen)))).toBeLessThan(200);

      const fetched = await client.get(name);
      expect(fetched.toJson()).toEqual(proxy.toJson());
      const all = await client.getAll();
      expect(Object.keys(all).filter((key) => owned.owns(key))).toEqual([name]);
      expect(all[name].upstream).toBe(`127.0.0.1:${upstream.port}`);

      const disabled = await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream });
      expect(disabled.enabled).toBe(false);
      await expect(dial(portOf(proxy.listen))).rejects.toMatchObject({ code: 'ECONNREFUSED' });

      await proxy.remove();
      await expect(client.get(name)).rejects.toThrow('Request failed with status code 404');
      await expect(client.createProxy({ name: '', listen: '127.0.0.1:0', upstream: 'x:1' })).rejects.toThrow(
        'Request failed with status code 400',
      );
    });

    it('populates and reads the version', async () => {
      const a = owned.name('pa');
      const b = owned.name('pb');
      const populated = await client.populate([
        { name: a, listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstream.port}` },
        { name: b, listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstream.port}` },
      ]);
      expect(Object.keys(populated).sort()).toEqual([a, b].sort());
      const version = JSON.parse(await client.getVersion());
      expect(version.version).toMatch(/^2\.\d+\.\d+/);
    });

    it.skipIf(spec.shared)(`resets: toxics removed, proxies enabled again (${RESET_SKIP})`, async () => {
      const name = owned.name('pr');
      await client.populate([{ name, listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstream.port}` }]);
      const proxy = await client.get(name);
      await proxy.addToxic({
        name: 'slow',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 300, jitter: 0 },
      });
      await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream });
      await client.reset();
      const after = await client.get(name);
      expect(after.enabled).toBe(true);
      await expect(after.getToxic('slow')).rejects.toThrow('Request failed with status code 404');
    });

    it('adds, gets, updates and removes toxics, which act on the traffic', async () => {
      const name = owned.name('nt');
      const proxy = await client.createProxy({ name, listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstream.port}` });
      const toxic = await proxy.addToxic({
        name: 'lag',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 150, jitter: 0 },
      });
      expect(toxic.toJson()).toEqual({
        name: 'lag',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 150, jitter: 0 },
      });
      const socket = await dial(portOf(proxy.listen));
      expect(await roundTrip(socket)).toBeGreaterThanOrEqual(149);

      const fetched = await proxy.getToxic('lag');
      expect(fetched.attributes).toEqual({ latency: 150, jitter: 0 });
      const updated = await fetched.update({
        name: 'lag',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 10, jitter: 0 },
      });
      expect(updated.attributes).toEqual({ latency: 10, jitter: 0 });
      const rtt = await roundTrip(socket);
      expect(rtt).toBeGreaterThanOrEqual(9);
      expect(rtt).toBeLessThan(100);

      await expect(
        proxy.addToxic({
          name: 'lag',
          type: 'latency',
          stream: 'upstream',
          toxicity: 1,
          attributes: { latency: 1, jitter: 0 },
        }),
      ).rejects.toThrow('Request failed with status code 409');
      await updated.remove();
      await expect(proxy.getToxic('lag')).rejects.toThrow('Request failed with status code 404');
    });
  });
}
