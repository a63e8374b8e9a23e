// The three network backends behind one interface, and the typed API client's errors.
import { type AddressInfo, createServer, type Server } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ContainerRuntimeUnavailableError,
  createNetworkBackend,
  type NetworkBackend,
  NetworkBackendError,
  ToxiproxyApi,
  ToxiproxyApiError,
} from '../../../src/network/index.ts';
import { startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';
import { destroyOpenSockets, dial, roundTrip, startUpstream, type Upstream } from '../toxiproxy/helpers.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  destroyOpenSockets();
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function echo(): Promise<Upstream> {
  const upstream = await startUpstream();
  cleanup.push(() => upstream.close());
  return upstream;
}

/** TCP handles (servers and sockets) currently open in this process. */
const tcpHandles = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length;

/** A loopback port with nothing listening. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('embedded backend', () => {
  it('proxies an upstream, applies toxics through its API, and closes every handle', async () => {
    const upstream = await echo();
    const before = tcpHandles();
    const backend = await createNetworkBackend('embedded', { seed: 3 });
    expect(backend.kind).toBe('embedded');
    expect(backend.deterministic).toBe(true);
    expect(backend.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const endpoint = await backend.createProxy('mcp', { port: upstream.port });
    expect(endpoint).toMatchObject({ name: 'mcp', host: '127.0.0.1' });
    expect(endpoint.proxy.upstream).toBe(`127.0.0.1:${upstream.port}`);
    const socket = await dial(endpoint.port);
    expect(await roundTrip(socket)).toBeLessThan(100);
    await backend.api.addToxic('mcp', { type: 'latency', attributes: { latency: 120 } });
    expect(await roundTrip(socket)).toBeGreaterThanOrEqual(119);
    // Creating the same name again replaces the proxy.
    const again = await backend.createProxy('mcp', { port: upstream.port });
    expect(again.proxy.toxics).toEqual([]);
    socket.destroy();
    await backend.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tcpHandles()).toBe(before);
    await expect(dial(again.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(backend.api.version()).rejects.toBeInstanceOf(ToxiproxyApiError);
  });

  it('reports the seeded decisions to onDecision', async () => {
    const upstream = await echo();
    const decisions: unknown[] = [];
    const backend = await createNetworkBackend('embedded', {
      seed: 11,
      onDecision: (decision) => decisions.push(decision),
    });
    cleanup.push(() => backend.close());
    const endpoint = await backend.createProxy('svc', { port: upstream.port });
    await backend.api.addToxic('svc', { type: 'latency', toxicity: 0.5, attributes: { latency: 1 } });
    await roundTrip(await dial(endpoint.port));
    expect(decisions).toEqual([
      // Keyed by the connection ordinal (core/decision-log.ts).
      {
        stream: 'toxiproxy/svc/c1/downstream/latency_downstream',
        what: 'toxicity',
        value: expect.any(Boolean),
        keyed: true,
      },
    ]);
  });
});

describe('external backend', () => {
  it('refuses a non-loopback host unless allowed, without sending anything', async () => {
    const attempt = createNetworkBackend('http://10.1.2.3:8474');
    await expect(attempt).rejects.toBeInstanceOf(NetworkBackendError);
    await expect(attempt).rejects.toThrow(/refusing non-loopback server http:\/\/10\.1\.2\.3:8474/);
  });

  it('fails fast with one clear line when nothing listens', async () => {
    const port = await deadPort();
    const start = performance.now();
    const attempt = createNetworkBackend(`http://127.0.0.1:${port}`);
    await expect(attempt).rejects.toThrow(
      `toxiproxy: no Toxiproxy answering at http://127.0.0.1:${port}/version (ECONNREFUSED)`,
    );
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('gives up when /version does not answer within the timeout', async () => {
    const silent: Server = createServer(() => {});
    const held = new Set<import('node:net').Socket>();
    silent.on('connection', (socket) => held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanup.push(async () => {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const { port } = silent.address() as AddressInfo;
    const start = performance.now();
    await expect(createNetworkBackend(`http://127.0.0.1:${port}`, { versionTimeoutMs: 300 })).rejects.toThrow(
      'no answer within 300 ms',
    );
    expect(performance.now() - start).toBeLessThan(1500);
  });

  it('drives a running server and removes the proxies it created on close', async () => {
    const server = await startEmbeddedToxiproxy();
    cleanup.push(() => server.close());
    const upstream = await echo();
    const backend: NetworkBackend = await createNetworkBackend(server.url);
    expect(backend).toMatchObject({ kind: 'external', apiUrl: server.url, deterministic: false });
    const endpoint = await backend.createProxy('ext', { port: upstream.port });
    expect(await roundTrip(await dial(endpoint.port))).toBeLessThan(100);
    await backend.close();
    expect(await new ToxiproxyApi(server.url).listProxies()).toEqual({});
  });
});

describe('container backend', () => {
  const hasRuntimeHint = Boolean(process.env.DOCKER_HOST) || process.env.TESTCONTAINERS_HOST_OVERRIDE !== undefined;
  it.skipIf(hasRuntimeHint)('reports a missing container runtime in well under 2 s, in one line', async () => {
    // Loading testcontainers itself costs ~0.5 s (more when other test files hold the CPU); detection is timed alone.
    await import('testcontainers');
    const start = performance.now();
    const error = await createNetworkBackend('container').catch((caught: unknown) => caught);
    expect(performance.now() - start).toBeLessThan(1200);
    expect(error).toBeInstanceOf(ContainerRuntimeUnavailableError);
    expect(error).toBeInstanceOf(NetworkBackendError);
    const message = (error as Error).message;
    expect(message).toContain('no container runtime found');
    expect(message).toContain('Could not find a working container runtime strategy');
    expect(message).not.toContain('\n');
  });
});

describe('createNetworkBackend', () => {
  it('rejects an unknown spec', async () => {
    await expect(createNetworkBackend('docker')).rejects.toThrow('unknown backend "docker"');
  });
});

describe('ToxiproxyApi errors', () => {
  it('carry the HTTP status and the server message', async () => {
    const server = await startEmbeddedToxiproxy();
    cleanup.push(() => server.close());
    const api = new ToxiproxyApi(server.url);
    const upstream = await echo();
    await api.createProxy({ name: 'p', listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstream.port}` });
    await api.addToxic('p', { type: 'noop' });
    const conflict = await api.addToxic('p', { type: 'noop' }).catch((caught: unknown) => caught);
    expect(conflict).toBeInstanceOf(ToxiproxyApiError);
    expect(conflict).toMatchObject({
      status: 409,
      serverMessage: 'toxic already exists',
      method: 'POST',
      path: '/proxies/p/toxics',
    });
    await expect(api.getToxic('p', 'nope')).rejects.toMatchObject({ status: 404, serverMessage: 'toxic not found' });
    expect(await api.listToxics('p')).toEqual([
      { attributes: {}, name: 'noop_downstream', type: 'noop', stream: 'downstream', toxicity: 1 },
    ]);
    expect(await api.updateToxic('p', 'noop_downstream', { toxicity: 0.5 })).toMatchObject({ toxicity: 0.5 });
    expect(await api.updateProxy('p', { enabled: false })).toMatchObject({ enabled: false });
    expect(
      (await api.populate([{ name: 'q', listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstream.port}` }]))[0].name,
    ).toBe('q');
    await api.reset();
    expect((await api.getProxy('p')).enabled).toBe(true);
    await api.deleteProxy('q');
    expect(await api.version()).toBe('2.12.0+faultline');
    const dead = new ToxiproxyApi(`http://127.0.0.1:${await deadPort()}`);
    await expect(dead.version()).rejects.toMatchObject({ status: 0 });
  });
});
