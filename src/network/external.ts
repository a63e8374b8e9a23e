// A Toxiproxy server someone else runs (toxiproxy-server, docker-compose, `faultline toxiproxy`), by URL.
// Loopback only unless allowNonLoopback; it must answer /version within 2 s.
import { isLoopbackHost } from '../toxiproxy/address.ts';
import {
  type NetworkBackend,
  NetworkBackendError,
  type NetworkBackendOptions,
  type ProxyEndpoint,
  type Upstream,
} from './backend.ts';
import { listenPort, replaceProxy } from './proxy-helpers.ts';
import { ToxiproxyApi, ToxiproxyApiError } from './toxiproxy-api.ts';

export async function connectExternalBackend(
  url: string,
  options: NetworkBackendOptions = {},
): Promise<NetworkBackend> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NetworkBackendError(`toxiproxy: "${url}" is not a URL (expected e.g. http://127.0.0.1:8474)`, 'external');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new NetworkBackendError(`toxiproxy: ${url} must be an http:// URL`, 'external');
  }
  const host = parsed.hostname;
  if (!isLoopbackHost(host) && !options.allowNonLoopback) {
    throw new NetworkBackendError(
      `toxiproxy: refusing non-loopback server ${url} (faults would leave this machine); pass --allow-non-loopback to use it anyway`,
      'external',
    );
  }
  const timeoutMs = options.versionTimeoutMs ?? 2000;
  const apiUrl = parsed.origin;
  const probe = new ToxiproxyApi(apiUrl, { timeoutMs });
  try {
    await probe.version();
  } catch (error) {
    const reason =
      error instanceof ToxiproxyApiError && error.status > 0
        ? `HTTP ${error.status}`
        : (error as Error).message.replace(/^GET \/version: cannot reach \S+ \((.*)\)$/, '$1');
    throw new NetworkBackendError(`toxiproxy: no Toxiproxy answering at ${apiUrl}/version (${reason})`, 'external');
  }
  const api = new ToxiproxyApi(apiUrl);
  const listenHost = options.listenHost ?? host.replace(/^\[|\]$/g, '');
  if (!isLoopbackHost(listenHost) && !options.allowNonLoopback) {
    throw new NetworkBackendError(`toxiproxy: refusing non-loopback listen host ${listenHost}`, 'external');
  }
  const created = new Set<string>();
  return {
    kind: 'external',
    apiUrl,
    api,
    deterministic: false,
    async createProxy(name: string, upstream: Upstream): Promise<ProxyEndpoint> {
      const listen = listenHost.includes(':') ? `[${listenHost}]:0` : `${listenHost}:0`;
      const upstreamHost = upstream.host ?? options.upstreamHost ?? '127.0.0.1';
      const proxy = await replaceProxy(api, { name, listen, upstream: `${upstreamHost}:${upstream.port}` });
      created.add(name);
      return { name, host: listenHost, port: listenPort(proxy.listen), proxy };
    },
    // The server is not ours: leave it running, but take away the proxies this run created.
    async close() {
      const names = [...created];
      created.clear();
      await Promise.all(names.map((name) => api.deleteProxy(name).catch(() => {})));
    },
  };
}
