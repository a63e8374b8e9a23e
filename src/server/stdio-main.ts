// The reference tools over stdio (msw dependencies in this process too). Usage:
//   node bin/run-ts.js src/server/stdio-main.ts [--seed N] [--dependency-timeout-ms N] [--leaky]
//     [--faults '<JSON array of dependency fault specs>'] [--admin-port N --admin-token T]
//     [--snapshot FILE] [--events]
// stdout carries only JSON-RPC; nothing else may print there (except what a tagged stdio fault writes on purpose).
// With --events every effect, dependency state change and decision also goes to stderr as one
// `@faultline {json}` line as it happens, so a harness keeps the ledger when this process is killed; --snapshot
// restores what an earlier process left (the dependencies are "external": they outlive a server crash).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startAdminHttp } from '../control/admin-http.ts';
import { LocalControl } from '../control/control.ts';
import { STDIO_EVENT_PREFIX } from '../control/stdio-events.ts';
import { DEFAULT_DEPENDENCY_TIMEOUT_MS } from '../core/defaults.ts';
import { startDependencies } from './deps/world.ts';
import { createMcpServer } from './mcp-server.ts';
import { ServerRuntime } from './runtime.ts';
import { StdioOutputFaults } from './stdio-output.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    'dependency-timeout-ms': { type: 'string' },
    leaky: { type: 'boolean', default: false },
    faults: { type: 'string' },
    'admin-port': { type: 'string' },
    'admin-token': { type: 'string' },
    snapshot: { type: 'string' },
    events: { type: 'boolean', default: false },
  },
});

// Keep stdout clean for JSON-RPC: anything logged goes to stderr.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

const mocks = startDependencies(
  Number(values.seed),
  values.snapshot ? JSON.parse(readFileSync(values.snapshot, 'utf8')) : undefined,
);
const { world } = mocks;
if (values.events) {
  const push = (event: object) => process.stderr.write(`${STDIO_EVENT_PREFIX}${JSON.stringify(event)}\n`);
  world.ledger.onEffect((effect) => push({ type: 'effect', effect }));
  world.state.onPut((record) => push({ type: 'state', record }));
  world.onDecision((decision) => push({ type: 'decision', decision }));
}
if (values.faults) world.faults.set(JSON.parse(values.faults));
const runtime = new ServerRuntime({
  dependencyTimeoutMs: Number(values['dependency-timeout-ms'] ?? DEFAULT_DEPENDENCY_TIMEOUT_MS),
  leaky: values.leaky ?? false,
});
const admin =
  values['admin-port'] && values['admin-token']
    ? await startAdminHttp(new LocalControl(world, runtime), {
        port: Number(values['admin-port']),
        token: values['admin-token'],
      })
    : undefined;
if (admin) console.error(`faultline admin endpoint on ${admin.url}`);

const server = createMcpServer(runtime);
const transport = new StdioOutputFaults(new StdioServerTransport(), process.stdout);
transport.onclose = () => {
  mocks.close();
  void admin?.close();
  process.exit(0);
};
await server.connect(transport);
process.stdin.on('end', () => void server.close());
