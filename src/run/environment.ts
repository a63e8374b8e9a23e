// One profile's running system: the reference server in its own process, the MCP link through a Toxiproxy
// proxy, and the client session. close() tears all of it down, whatever state it is in.
import { Session } from '../client/session.ts';
import { EdgeController } from '../edge/controller.ts';
import type { FaultEnvironment } from '../faults/environment.ts';
import type { NetworkBackend } from '../network/backend.ts';
import type { Profile } from '../profile/schema.ts';
import { ServerHandle } from '../server/handle.ts';

export interface Environment extends FaultEnvironment {
  session: Session;
  mcpUrl: string;
  close(): Promise<void>;
}

export async function startEnvironment(profile: Profile, seed: number, backend: NetworkBackend): Promise<Environment> {
  const target = profile.target;
  const server = await ServerHandle.start({
    seed,
    eventStore: target.eventStore,
    retryIntervalMs: target.retryIntervalMs,
    dependencyTimeoutMs: target.dependencyTimeoutMs,
    leaky: target.leaky,
  });
  const proxyName = `mcp-${profile.name}`;
  let session: Session | undefined;
  try {
    const listen = await backend.createProxy(proxyName, { port: server.port });
    const mcpUrl = `http://${listen.host}:${listen.port}/mcp`;
    const edge = new EdgeController();
    session = new Session({ url: mcpUrl, wrapFetch: edge.wrap });
    const env: Environment = {
      server,
      session,
      mcpUrl,
      network: { api: backend.api, mcpProxy: proxyName },
      dependencyFaults: new Map(),
      edge,
      close: async () => {
        await session?.close();
        await backend.api.deleteProxy(proxyName).catch(() => {});
        await server.stop();
      },
    };
    return env;
  } catch (error) {
    await session?.close();
    await server.stop();
    throw error;
  }
}
