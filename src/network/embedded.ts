// The default backend: Faultline's own Toxiproxy-compatible server, in process, on 127.0.0.1 and an ephemeral
// port. Its draws come from the run seed and reach onDecision. Being in process, it can also say what each toxic
// did (counters), which no Toxiproxy API call tells.
import { startEmbeddedToxiproxy } from '../toxiproxy/server.ts';
import type { NetworkBackend, NetworkBackendOptions, NetworkCounters, ProxyEndpoint, Upstream } from './backend.ts';
import { listenPort, replaceProxy } from './proxy-helpers.ts';
import { ToxiproxyApi } from './toxiproxy-api.ts';

export async function startEmbeddedBackend(options: NetworkBackendOptions = {}): Promise<NetworkBackend> {
  const server = await startEmbeddedToxiproxy({
    host: '127.0.0.1',
    port: 0,
    seed: options.seed,
    onDecision: options.onDecision,
  });
  const api = new ToxiproxyApi(server.url);
  const counters: NetworkCounters = {
    toxicHits: (proxy, toxic) => server.proxies.get(proxy).toxics.hitsOf(toxic) ?? 0,
    closedByStop: (proxy) => server.proxies.get(proxy).closedByStop,
  };
  return {
    kind: 'embedded',
    apiUrl: server.url,
    api,
    deterministic: true,
    counters,
    async createProxy(name: string, upstream: Upstream): Promise<ProxyEndpoint> {
      const proxy = await replaceProxy(api, {
        name,
        listen: '127.0.0.1:0',
        upstream: `${upstream.host ?? '127.0.0.1'}:${upstream.port}`,
      });
      return { name, host: '127.0.0.1', port: listenPort(proxy.listen), proxy };
    },
    close: () => server.close(),
  };
}
