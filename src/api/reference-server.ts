// startReferenceServer: Faultline's reference MCP server in its own process, for tests that bring their own client.
import { ServerHandle as Handle, type ServerHandle, type ServerOptions } from '../targets/child-target.ts';

export type { ServerHandle, ServerOptions } from '../targets/child-target.ts';

/**
 * Starts the reference MCP server (Streamable HTTP on 127.0.0.1) in a child process, with its msw dependency
 * world (payments, notifications, search, reports, auth) and effect ledger.
 *
 * @param options - seed of the dependency fault draws (default 1), port (default: a free one), event store, …
 * @returns its handle: `url` (the MCP endpoint), `ledger()`, `setDependencyFaults()`, `kill()`, `restart()`,
 *   `stop()` (always call it: the process ends with this one anyway, but only stop() ends it now).
 *
 * @example
 * ```ts
 * const server = await startReferenceServer();
 * try { console.log(server.url); } finally { await server.stop(); }
 * ```
 */
export function startReferenceServer(options: Partial<ServerOptions> = {}): Promise<ServerHandle> {
  return Handle.start({ seed: 1, ...options });
}
