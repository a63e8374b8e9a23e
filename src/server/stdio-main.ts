// The reference tools over stdio (msw dependencies in this process too). Usage:
//   node bin/run-ts.js src/server/stdio-main.ts [--seed N] [--dependency-timeout-ms N] [--leaky]
//     [--control '<JSON array of control requests { op, input }>'] [--admin-port N --admin-token T]
//     [--snapshot FILE] [--events] [--front-end sdk1|sdk2|dual]
// stdout carries only JSON-RPC; nothing else may print there (stdio edge faults act on the pipe, not here).
// With --events every effect, dependency state change and decision also goes to stderr as one
// `@faultline {json}` line as it happens, so a harness keeps the ledger when this process is killed; --snapshot
// restores what an earlier process left (the dependencies are "external": they outlive a server crash).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startAdminHttp } from '../control/admin-http.ts';
import type { ControlRequest } from '../control/control.ts';
import { streamWorldEvents } from '../control/events.ts';
import { stdioEventLine } from '../control/stdio-events.ts';
import { DEFAULT_DEPENDENCY_TIMEOUT_MS } from '../core/defaults.ts';
import type { FrontEnd } from '../core/front-end.ts';
import { dispatch, LocalControl } from './control/local-control.ts';
import { startDependencies } from './deps/world.ts';
import { createMcpServer } from './mcp-server.ts';
import { ServerRuntime } from './runtime.ts';
import { queuedStdout } from './stdout-queue.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    'dependency-timeout-ms': { type: 'string' },
    leaky: { type: 'boolean', default: false },
    control: { type: 'string' },
    'admin-port': { type: 'string' },
    'admin-token': { type: 'string' },
    snapshot: { type: 'string' },
    events: { type: 'boolean', default: false },
    'front-end': { type: 'string', default: 'sdk1' },
  },
});

// Keep stdout clean for JSON-RPC: anything logged goes to stderr.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

const dependencies = startDependencies(
  Number(values.seed),
  values.snapshot ? JSON.parse(readFileSync(values.snapshot, 'utf8')) : undefined,
);
const { world } = dependencies;
if (values.events) streamWorldEvents(world, (event) => process.stderr.write(stdioEventLine(event)));
const runtime = new ServerRuntime({
  dependencyTimeoutMs: Number(values['dependency-timeout-ms'] ?? DEFAULT_DEPENDENCY_TIMEOUT_MS),
  leaky: values.leaky ?? false,
  dependencyFetch: dependencies.fetch,
});
// The desired fault state of the run, before the first request is served.
for (const request of JSON.parse(values.control ?? '[]') as ControlRequest[]) {
  await dispatch({ world, runtime }, request.op, request.input);
}
const admin =
  values['admin-port'] && values['admin-token']
    ? await startAdminHttp(new LocalControl({ world, runtime }), {
        port: Number(values['admin-port']),
        token: values['admin-token'],
      })
    : undefined;
if (admin) console.error(`faultline admin endpoint on ${admin.url}`);

const stop = () => {
  void admin?.close();
  process.exit(0);
};
const frontEnd = values['front-end'] as FrontEnd;
if (frontEnd === 'sdk1') {
  const server = createMcpServer(runtime);
  const transport = new StdioServerTransport(process.stdin, queuedStdout());
  transport.onclose = stop;
  await server.connect(transport);
  process.stdin.on('end', () => void server.close());
} else {
  // serveStdio owns its transport (and its onclose): the end of stdin is this process's cue to stop. The SDK 2.4
  // front end is loaded only here: a 2025-era process starts sooner without its modules (one process per connection).
  const { serveModernStdio } = await import('./modern/stdio-front.ts');
  const handle = serveModernStdio(runtime, frontEnd, (error) => console.error(`stdio: ${error.message}`));
  process.stdin.on('end', () => void handle.close().finally(stop));
}
