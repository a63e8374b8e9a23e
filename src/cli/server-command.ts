// faultline server: the reference MCP server alone (for docker-compose, another harness, or poking at it with
// an MCP client), with the control operations on a separate loopback admin port guarded by a bearer token.
import { randomBytes } from 'node:crypto';
import { type Command, Option } from 'commander';
import { startAdminHttp } from '../control/admin-http.ts';
import { startReferenceServer } from '../server/reference-server.ts';
import { assertLoopbackHost } from './assert-loopback.ts';
import { parsePort, parseSeed } from './parse.ts';

interface ServerFlags {
  host: string;
  port: number;
  seed: number;
  eventStore: boolean;
  dependencyTimeoutMs?: number;
  adminPort?: number;
  adminToken?: string;
  allowNonLoopback?: boolean;
}

export function registerServerCommand(program: Command): void {
  program
    .command('server')
    .description('run the reference MCP server (Streamable HTTP) in the foreground')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to bind (0 picks a free one)', parsePort, 0)
    .option('--seed <n>', 'seed of the dependency fault draws', parseSeed, 1)
    .option('--no-event-store', 'turn resumability off')
    .addOption(new Option('--dependency-timeout-ms <ms>', 'timeout on dependency calls').argParser(parsePort))
    .option('--admin-port <port>', 'also serve the control API (faults, ledger, reset) on this port', parsePort)
    .option('--admin-token <token>', 'bearer token for the control API (default: a random one, printed)')
    .option('--allow-non-loopback', 'allow binding an address outside 127.0.0.0/8 and ::1')
    .action(async (flags: ServerFlags) => {
      assertLoopbackHost(flags.host, flags.allowNonLoopback === true, '--host');
      const server = await startReferenceServer({
        seed: flags.seed,
        host: flags.host,
        port: flags.port,
        eventStore: flags.eventStore,
        dependencyTimeoutMs: flags.dependencyTimeoutMs,
      });
      process.stdout.write(`faultline server: MCP endpoint ${server.http.url}\n`);
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
    });
}
