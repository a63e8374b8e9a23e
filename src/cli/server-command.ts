// faultline server: the reference MCP server alone (for docker-compose, another harness, or poking at it with
// an MCP client), with the control operations on a separate loopback admin port guarded by a bearer token.
import { randomBytes } from 'node:crypto';
import { startAdminHttp } from '../control/admin-http.ts';
import { SERVER_PROTOCOLS, type ServerProtocol } from '../core/front-end.ts';
import { startReferenceServer } from '../server/reference-server.ts';
import { assertLoopbackHost } from './assert-loopback.ts';

export interface ServerFlags {
  host: string;
  port: number;
  seed: number;
  eventStore: boolean;
  protocol: ServerProtocol;
  dependencyTimeoutMs?: number;
  adminPort?: number;
  adminToken?: string;
  allowNonLoopback?: boolean;
  /** Host names answered besides loopback ones (a cluster service name in front of the server). */
  allowHost?: string[];
}

export async function serverCommand(flags: ServerFlags): Promise<void> {
  assertLoopbackHost(flags.host, flags.allowNonLoopback === true, '--host');
  const server = await startReferenceServer({
    seed: flags.seed,
    host: flags.host,
    port: flags.port,
    eventStore: flags.eventStore,
    dependencyTimeoutMs: flags.dependencyTimeoutMs,
    allowedHosts: flags.allowHost,
    frontEnd: SERVER_PROTOCOLS[flags.protocol],
  });
  process.stdout.write(`faultline server: MCP endpoint ${server.http.url} (protocol: ${flags.protocol})\n`);
  let admin: Awaited<ReturnType<typeof startAdminHttp>> | undefined;
  if (flags.adminPort !== undefined) {
    const token = flags.adminToken ?? randomBytes(16).toString('hex');
    admin = await startAdminHttp(server.control, { token, host: flags.host, port: flags.adminPort });
    process.stdout.write(`faultline server: control API ${admin.url} (Authorization: Bearer ${token})\n`);
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await admin?.close();
  await server.close();
}
