// What fault kinds can reach: the seams of one running environment.
import type { ServerHandle } from '../server/handle.ts';

export interface NetworkSeam {
  /** Base URL of the Toxiproxy HTTP API in use (embedded, external or container). */
  apiUrl: string;
  /** Name of the proxy that carries the MCP client-server link. */
  mcpProxy: string;
}

export interface FaultEnvironment {
  server: ServerHandle;
  network: NetworkSeam;
  /** Dependency faults active now, by fault id: the server takes the whole set at once. */
  dependencyFaults: Map<string, unknown>;
}
