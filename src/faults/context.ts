// What fault kinds can reach: the seams of one running environment.

import type { NetworkCounters } from '../network/backend.ts';
import type { ToxiproxyApi } from '../network/toxiproxy-api.ts';
import type { ServerUnderTest } from '../under-test/target.ts';
import type { EdgeController } from './edge/http/controller.ts';
import type { StdioEdgeController } from './edge/stdio/controller.ts';

interface NetworkSeam {
  /** The Toxiproxy HTTP API in use (embedded, external or container). */
  api: ToxiproxyApi;
  /** Name of the proxy that carries the MCP client-server link. */
  mcpProxy: string;
  /** What the server's toxics did (embedded backend only; real Toxiproxy cannot tell, so hits are null there). */
  counters?: NetworkCounters;
}

export interface FaultEnvironment {
  /** The target: dependency and behaviour faults edit its desired fault state; operations it cannot do throw. */
  server: ServerUnderTest;
  network: NetworkSeam;
  /** MCP-edge faults: rules on the client's fetch. */
  edge: EdgeController;
  /** MCP-edge faults on a stdio target: rules picking requests for the interposer on the stdio pipe (inert on HTTP targets). */
  stdio: StdioEdgeController;
}
