// startNetwork: a Toxiproxy-compatible network backend, for proxies with toxics in front of any TCP server.
import type { NetworkBackend, NetworkBackendOptions } from '../network/backend.ts';
import { createNetworkBackend, type NetworkBackendSpec } from '../network/factory.ts';

export type { NetworkBackend, NetworkBackendOptions, ProxyEndpoint, Upstream } from '../network/backend.ts';
export type { NetworkBackendSpec } from '../network/factory.ts';

/**
 * Starts (or connects to) a network backend: `embedded` (Faultline's own Toxiproxy-compatible server, in this
 * process, seeded), `container` (ghcr.io/shopify/toxiproxy through Docker), or the URL of a running Toxiproxy API.
 *
 * @returns the backend: `createProxy(name, upstream)` answers where to connect, `api` drives toxics, `close()`
 *   removes what it created.
 *
 * @example
 * ```ts
 * const network = await startNetwork('embedded', { seed: 7 });
 * const proxy = await network.createProxy('mcp', { port: 3001 });
 * // connect to http://127.0.0.1:${proxy.port}/mcp; add toxics with network.api or withFault
 * await network.close();
 * ```
 */
export function startNetwork(
  spec: NetworkBackendSpec = 'embedded',
  options: NetworkBackendOptions = {},
): Promise<NetworkBackend> {
  return createNetworkBackend(spec, options);
}
