// Real Toxiproxy 2.12 in a container (testcontainers 11). The idea of @testcontainers/toxiproxy (which needs
// Node 22) on GenericContainer: expose 8474 and a range of proxy ports, give each proxy the first free one, and
// reach upstreams on this machine through host.testcontainers.internal.
import type { NetworkBackend, NetworkBackendOptions, ProxyEndpoint, Upstream } from './backend.ts';
import { ContainerRuntimeUnavailableError, NetworkBackendError } from './backend.ts';
import { loadTestcontainers } from './load-testcontainers.ts';
import { replaceProxy } from './proxy-helpers.ts';
import { ToxiproxyApi } from './toxiproxy-api.ts';

export const TOXIPROXY_IMAGE = 'ghcr.io/shopify/toxiproxy:2.12.0';
const API_PORT = 8474;
/** The module's range: 32 proxy ports. */
const PROXY_PORTS = Array.from({ length: 32 }, (_, i) => 8666 + i);

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Fails fast, with one line, when no container runtime answers. */
async function assertContainerRuntime(timeoutMs = 1000): Promise<void> {
  let testcontainers: typeof import('testcontainers');
  try {
    testcontainers = await loadTestcontainers();
  } catch (error) {
    if (error instanceof NetworkBackendError) throw error;
    throw new ContainerRuntimeUnavailableError(`testcontainers could not load: ${(error as Error).message}`);
  }
  const probe = testcontainers.getContainerRuntimeClient();
  probe.catch(() => {}); // A late rejection after the timeout must not go unhandled.
  try {
    await withTimeout(probe, timeoutMs, () => new Error(`no answer within ${timeoutMs} ms`));
  } catch (error) {
    throw new ContainerRuntimeUnavailableError((error as Error).message);
  }
}

export async function startContainerBackend(options: NetworkBackendOptions = {}): Promise<NetworkBackend> {
  await assertContainerRuntime(options.runtimeTimeoutMs ?? 1000);
  const { GenericContainer, TestContainers, Wait } = await loadTestcontainers();
  // The port forwarder must run before the container starts, or the container gets no host.testcontainers.internal.
  await TestContainers.exposeHostPorts();
  let container: Awaited<ReturnType<InstanceType<typeof GenericContainer>['start']>>;
  try {
    container = await new GenericContainer(options.image ?? TOXIPROXY_IMAGE)
      .withExposedPorts(API_PORT, ...PROXY_PORTS)
      .withWaitStrategy(Wait.forHttp('/version', API_PORT))
      .withStartupTimeout(30_000)
      .start();
  } catch (error) {
    throw new NetworkBackendError(
      `toxiproxy container backend: could not start ${options.image ?? TOXIPROXY_IMAGE}: ${(error as Error).message.split('\n')[0]}`,
      'container',
    );
  }
  const apiUrl = `http://${container.getHost()}:${container.getMappedPort(API_PORT)}`;
  const api = new ToxiproxyApi(apiUrl);
  let stopped: Promise<void> | undefined;
  return {
    kind: 'container',
    apiUrl,
    api,
    deterministic: false,
    async createProxy(name: string, upstream: Upstream): Promise<ProxyEndpoint> {
      await TestContainers.exposeHostPorts(upstream.port);
      const proxies = Object.values(await api.listProxies()).filter((proxy) => proxy.name !== name);
      const used = new Set(proxies.map((proxy) => Number(proxy.listen.slice(proxy.listen.lastIndexOf(':') + 1))));
      const port = PROXY_PORTS.find((candidate) => !used.has(candidate));
      if (port === undefined)
        throw new NetworkBackendError('toxiproxy container backend: no available ports left', 'container');
      const proxy = await replaceProxy(api, {
        name,
        listen: `0.0.0.0:${port}`,
        upstream: `host.testcontainers.internal:${upstream.port}`,
      });
      return { name, host: container.getHost(), port: container.getMappedPort(port), proxy };
    },
    close() {
      stopped ??= container.stop().then(() => {});
      return stopped;
    },
  };
}
