// A stdio server we did not write. The harness spawns `command` (one process per connection) and owns it, so
// crash and restart work. Over its pipe the client spawns it itself; `over: http` puts Faultline's bridge in front
// (one process per MCP session), so the client reaches it through the proxy as it would an HTTP server.

import type { StdioEdgeController } from '../../faults/edge/stdio/controller.ts';
import type { Profile } from '../../profile/schema.ts';
import { ForeignStdioTarget } from '../../targets/foreign-stdio-target.ts';
import { Interception } from '../../targets/interception.ts';
import type { PlaceholderValues } from '../../targets/placeholders.ts';
import { expandStdioCommand } from '../../targets/stdio-command.ts';
import type { TargetStart } from './start.ts';

type StdioSpec = Extract<Profile['target'], { kind: 'stdio' }>;

/** The target with its command, arguments, environment and cwd with `${tmpdir}` and `${env:…}` expanded. */
function foreignStdioTarget(
  target: StdioSpec,
  placeholders: PlaceholderValues,
  stdio: StdioEdgeController,
  interception?: Interception,
): ForeignStdioTarget {
  return new ForeignStdioTarget(expandStdioCommand(target, placeholders), stdio, interception);
}

export const startStdio: TargetStart<StdioSpec> = async (target, ctx) => {
  const interception = ctx.intercept && new Interception(ctx.intercept.dependencies, ctx.seed, ctx.opKeyValues);
  await interception?.start();
  const server = foreignStdioTarget(target, ctx.placeholders, ctx.stdio, interception);
  if (target.over !== 'http')
    return { link: 'pipe', server, mcpUrl: `stdio:${target.command}`, pairedClient: false, sink: server, interception };
  // The bridge's HTTP server (hono) loads only for a stdio target served over HTTP.
  const { startHttpBridge } = await import('../../targets/http-bridge.ts');
  const bridge = await startHttpBridge(server.createTransport);
  return {
    link: 'tcp',
    server,
    upstream: new URL(bridge.url),
    notes: () => [
      "stdio over http: Faultline's bridge serves the stdio server, one process per MCP session",
      ...server.notes(),
    ],
    stop: async () => {
      await bridge.close();
      await server.close();
    },
    sink: server,
    interception,
  };
};
