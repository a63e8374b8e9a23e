// What fault kinds can reach: the seams of one running environment.
import type { EdgeController } from '../edge/controller.ts';
import type { ToxiproxyApi } from '../network/toxiproxy-api.ts';
import type { ServerHandle } from '../server/handle.ts';

export interface NetworkSeam {
  /** The Toxiproxy HTTP API in use (embedded, external or container). */
  api: ToxiproxyApi;
  /** Name of the proxy that carries the MCP client-server link. */
  mcpProxy: string;
}

export interface FaultEnvironment {
  server: ServerHandle;
  network: NetworkSeam;
  /** Dependency faults active now, by fault id: the server takes the whole set at once. */
  dependencyFaults: Map<string, unknown>;
  /** MCP-edge faults: rules on the client's fetch. */
  edge: EdgeController;
}
