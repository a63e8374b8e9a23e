// faultline conformance: the official MCP conformance suite (installed on first use, with a Node 22 from npm when
// this node is older) against the reference server, clean and under faults on the wire. A 429 on every request is
// the negative control: every covered scenario must lose its checks there, and --fail-on-degrade must say so.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-conformance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCENARIOS = ['ping', 'tools-list', 'logging-set-level'];
const LATENCY = '{ seam: network, kind: latency, latency: 50 }';
const ALWAYS_429 = '{ seam: edge, kind: status, status: 429, methods: [], probability: 1 }';

function conformance(out: string, ...extra: string[]) {
  const scenarios = SCENARIOS.flatMap((s) => ['--scenario', s]);
  return runCli(['conformance', ...scenarios, '--timeout-s', '60', '--out', join(dir, out), ...extra], {
    timeoutMs: 600_000,
  });
}

interface Pass {
  label: string;
  hits: number | null;
  results: Array<{ scenario: string; passed: number; failed: number }>;
}

describe('faultline conformance', () => {
  it('the reference server passes the scenarios it covers clean; a 429 on every request fails each, latency does not', async () => {
    const result = await conformance('legacy', '--fault', LATENCY, '--fault', ALWAYS_429, '--fail-on-degrade');
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'legacy', 'conformance.json'), 'utf8'));
    const [clean, latency, throttled] = report.passes as Pass[];
    expect(clean.results.map((r) => [r.scenario, r.failed])).toEqual(SCENARIOS.map((s) => [s, 0]).sort());
    for (const r of clean.results) expect(r.passed).toBeGreaterThan(0);
    expect(latency.hits).toBeGreaterThan(0);
    expect(latency.results.map((r) => r.failed)).toEqual([0, 0, 0]);
    expect(throttled.hits).toBeGreaterThanOrEqual(SCENARIOS.length);
    expect(throttled.results.map((r) => r.passed)).toEqual([0, 0, 0]);
    expect(report.degraded.map((d: { fault: string }) => d.fault)).toEqual(Array(3).fill(throttled.label));
    const table = readFileSync(join(dir, 'legacy', 'conformance.md'), 'utf8');
    expect(table).toMatch(/\| ping \| 1\/1 \| 1\/1 \| 0\/1 ✗ \|/);
  }, 600_000);

  it('serves both eras: the same scenarios pass clean, and without --fail-on-degrade the run exits 0', async () => {
    const result = await conformance('both', '--protocol', 'both', '--fault', LATENCY);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'both', 'conformance.json'), 'utf8'));
    expect((report.passes[0] as Pass).results.every((r) => r.failed === 0 && r.passed > 0)).toBe(true);
    expect(report.degraded).toEqual([]);
  }, 600_000);

  it('a fault the outside client cannot meet is one line and exit 2', async () => {
    const result = await runCli(['conformance', '--fault', '{ seam: server, kind: crash }']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/--fault .*expected a network or edge fault/),
    ]);
  });
});
