// The whole system under test in the current process: dependency world and msw, runtime, Streamable HTTP server.
// The child process entry and a standalone `faultline server` both build on this.

import { DEFAULT_DEPENDENCY_TIMEOUT_MS } from '../core/defaults.ts';
import type { FrontEnd } from '../core/front-end.ts';
import { LocalControl } from './control/local-control.ts';
import { type DependencyWorld, startDependencies, type WorldSnapshot } from './deps/world.ts';
import { type McpHttpServer, startMcpHttpServer } from './http-server.ts';
import { ServerRuntime } from './runtime.ts';

export interface ReferenceServerOptions {
  seed: number;
  host?: string;
  port?: number;
  eventStore?: boolean;
  retryIntervalMs?: number;
  dependencyTimeoutMs?: number;
  leaky?: boolean;
  /** How long a request state handed out with input_required stays valid. */
  requestStateTtlMs?: number;
  /** Cut search results above this size (default: unlimited). */
  maxResultBytes?: number;
  /** SSE keep-alive comment interval (SDK default 15000; 0 disables). */
  keepAliveMs?: number;
  /** Host names answered besides loopback ones (DNS-rebinding protection, host-guard.ts). */
  allowedHosts?: readonly string[];
  /** The protocol front end: sdk1 (2025-11-25, default), sdk2 (2026-07-28) or dual (both eras). */
  frontEnd?: FrontEnd;
}

export interface ReferenceServer {
  world: DependencyWorld;
  runtime: ServerRuntime;
  http: McpHttpServer;
  control: LocalControl;
  close(): Promise<void>;
}

export async function startReferenceServer(
  opts: ReferenceServerOptions,
  restore?: WorldSnapshot,
): Promise<ReferenceServer> {
  const { world, fetch } = startDependencies(opts.seed, restore);
  const runtime = new ServerRuntime({
    dependencyTimeoutMs: opts.dependencyTimeoutMs ?? DEFAULT_DEPENDENCY_TIMEOUT_MS,
    leaky: opts.leaky ?? false,
    requestStateTtlMs: opts.requestStateTtlMs,
    maxResultBytes: opts.maxResultBytes,
    dependencyFetch: fetch,
  });
  const http = await startMcpHttpServer(runtime, { ...opts, hits: world.hits });
  return {
    world,
    runtime,
    http,
    control: new LocalControl({ world, runtime, http }),
    async close() {
      await http.close();
    },
  };
}
