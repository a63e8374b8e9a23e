// A stdio server from npm (@modelcontextprotocol/server-memory) behind Faultline's own Streamable HTTP bridge
// (`target: { kind: stdio, over: http }`): network faults reset its connections on the wire and HTTP-edge faults
// answer its requests with 503s, and the resilient client's retries carry every op through. Without `over: http`
// the same network fault is refused at load: the pipe has no TCP link to put a proxy on.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/measure/run-report.ts';
import { REPO, runCli } from '../helpers/cli.ts';

const MEMORY = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'faultline-stdio-http-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function profile(name: string, over: string, fault: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
description: server-memory over stdio${over ? ' behind the HTTP bridge' : ''}
seed: 5
duration: 3s
target:
  kind: stdio
  command: ${process.execPath}
  args: [${MEMORY}]
  env: { MEMORY_FILE_PATH: "\${tmpdir}/memory.jsonl" }
${over}
client: { attemptTimeoutMs: 3000, deadlineMs: 20000, maxAttempts: 8, backoff: { initialMs: 100, maxMs: 600 } }
workload:
  rate: 10
  mix:
    - tool: create_entities
      args:
        entities: { list: [ { object: { name: { unique: ent- }, entityType: thing, observations: { list: [] } } } ] }
    - tool: read_graph
faults:
  - ${fault}
expect:
  - ops_fail == 0
  - fault_hits_min > 0
  - retried_ops >= 1
`,
  );
  return file;
}

const RESET = '{ seam: network, kind: reset_peer, stream: downstream, timeout: 0, start: 1s, stop: 1.6s }';
const EDGE_503 = '{ seam: edge, kind: status, status: 503, when: before, fromOp: 5, toOp: 14, firstAttempts: 1 }';

async function run(file: string, out: string) {
  const result = await runCli(['run', file, '--out', join(dir, out)], { timeoutMs: 120_000 });
  const report: RunReport = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8'));
  return { result, profile: report.profiles[0] };
}

describe.concurrent('a stdio server over the HTTP bridge', () => {
  it('takes connection resets on the wire: connections reset, every op carried through by retries', async () => {
    const { result, profile: p } = await run(profile('memory-reset', '  over: http', RESET), 'reset');
    expect(result.code, result.stderr).toBe(0);
    expect(p.metrics.errorsByCode['LINK.RESET']).toBeGreaterThan(0);
    expect(p.metrics.faultWindows[0].hits).toBeGreaterThan(0);
    expect(p.metrics.opsOk).toBe(p.metrics.ops);
    expect(p.notes.join('\n')).toMatch(/bridge serves the stdio server/);
  });

  it('takes HTTP-edge faults: ten ops meet a 503 on their first attempt, and each gets through on the next', async () => {
    const { result, profile: p } = await run(profile('memory-503', '  over: http', EDGE_503), 'edge');
    expect(result.code, result.stderr).toBe(0);
    expect(p.metrics.faultWindows[0].hits).toBe(10);
    expect(p.metrics.errorsByCode['EDGE.HTTP_503']).toBe(10);
    expect(p.metrics.opsOk).toBe(p.metrics.ops);
  });

  it('without over: http, the network fault is refused at load in one line, exit 2', async () => {
    const result = await runCli(['validate', profile('memory-pipe', '', RESET)]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /faults\[0\]\.kind: fault kind reset_peer needs a target reached over TCP.*target kind stdio cannot/,
      ),
    ]);
  });
});
