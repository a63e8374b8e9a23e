// `faultline capacity` on the reference server at two levels: the table, the plot and report.json's capacity
// section exist, and every number in them is what the per-level histories (history.jsonl) say. Bad flags are one
// line and exit 2.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { History } from '../../src/core/history.ts';
import { latencySummary } from '../../src/measure/latency.ts';
import type { RunReport } from '../../src/measure/run-report.ts';
import { parseHistories } from '../../src/report/history-file.ts';
import { runReportSchema } from '../../src/report/report-schema.ts';
import { type CliResult, runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-capacity-'));
const profile = join(dir, 'short.yaml');
const out = join(dir, 'out');
writeFileSync(
  profile,
  `name: capacity-short
description: payments fail half the time for 0.8 s, at two loads
seed: 5
duration: 1.5s
target: { kind: reference, dependencyTimeoutMs: 1000 }
client: { policy: resilient, attemptTimeoutMs: 2000, deadlineMs: 5000, maxAttempts: 8, backoff: { initialMs: 50, maxMs: 300 } }
workload:
  concurrency: 1
  mix:
    - tool: create_payment
      args:
        customer_id: cus_{op}
        amount_cents: { int: [100, 900] }
        currency: EUR
faults:
  - { seam: dependency, kind: status, dependency: payments, status: 503, probability: 0.5, start: 0.3s, stop: 1.1s }
expect:
  - duplicate_effects == 0
`,
);

let result: CliResult;
let report: RunReport;
let histories: Record<string, History>;

beforeAll(async () => {
  result = await runCli(['capacity', profile, '--levels', '4,1', '--out', out], { timeoutMs: 120_000 });
  report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  histories = parseHistories(readFileSync(join(out, 'history.jsonl'), 'utf8'), 'history.jsonl');
}, 130_000);

describe('faultline capacity', () => {
  it('runs a no-fault control and the faulted run at each level and prints the table with the knee and its rule', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/level 1: control \d+\/\d+ ok/);
    expect(result.stderr).toMatch(/level 4: control \d+\/\d+ ok/);
    expect(result.stdout).toContain('Capacity of capacity-short: 2 level(s) of ops in flight');
    expect(result.stdout).toMatch(/^level +run +ok ops\/s +p50 +p95 +p99 +op success +attempts\/op/m);
    expect(result.stdout).toMatch(
      /^(knee at [14] ops in flight: |no knee found at the levels tried \(1, 4 ops in flight\))/m,
    );
    expect(result.stdout).toContain("rule: knee = the lowest level where the faulted p99 is over 2× the control's p99");
    expect(report.profiles.map((p) => p.name)).toEqual([
      'capacity-short-c1-nofault',
      'capacity-short-c1',
      'capacity-short-c4-nofault',
      'capacity-short-c4',
    ]);
    expect(runReportSchema.safeParse(report).success).toBe(true);
  });

  it('every number in the capacity section is what the run histories say', () => {
    const capacity = report.capacity!;
    expect(capacity.levels.map((l) => l.level)).toEqual([1, 4]);
    for (const l of capacity.levels) {
      for (const [side, point] of [
        ['control', l.control],
        ['faulted', l.faulted],
      ] as const) {
        const h = histories[point.run];
        const ok = h.ops!.filter((o) => o.outcome === 'ok').length;
        expect(point.ops, `${point.run} ops`).toBe(h.ops!.length);
        expect(point.ops).toBeGreaterThan(0);
        expect(point.successRate).toBeCloseTo(ok / h.ops!.length, 9);
        const lat = latencySummary(h.ops!.map((o) => o.endMs - o.startMs));
        expect([point.p50, point.p95, point.p99]).toEqual([lat.p50, lat.p95, lat.p99]);
        expect(point.attemptsPerOp!).toBeCloseTo(h.attempts!.length / h.ops!.length, 2);
        const seconds = (Math.max(...h.ops!.map((o) => o.endMs)) - Math.min(...h.ops!.map((o) => o.startMs))) / 1000;
        expect(point.okOpsPerSec).toBeCloseTo(ok / seconds, 0);
        // The reference server shows its effects: counted, not n/a.
        expect(point.duplicates).not.toBeNull();
        expect(h.faults.length, `${point.run} fault windows`).toBe(side === 'control' ? 0 : 1);
      }
      // The faulted run met its fault (it retried); the control, with no fault, did not.
      expect(histories[l.faulted.run].attempts!.some((a) => !a.ok)).toBe(true);
      expect(histories[l.control.run].attempts!.every((a) => a.ok)).toBe(true);
      // Same seed, same plan: op i calls the same tool with the same arguments in both runs.
      const planned = new Map(histories[l.control.run].ops!.map((o) => [o.opId, o.argsKey]));
      const shared = histories[l.faulted.run].ops!.filter((o) => planned.has(o.opId));
      expect(shared.length).toBeGreaterThan(0);
      for (const o of shared) expect(o.argsKey).toBe(planned.get(o.opId));
    }
    const first = capacity.levels.find((l) => (l.breaks?.length ?? 0) > 0);
    expect(capacity.knee?.level ?? null).toBe(first?.level ?? null);
  });

  it('plots throughput and p99 against load in report.html (inline SVG, no script) and tabulates it in summary.md', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<section id="capacity">');
    expect(html).toMatch(/<svg [^>]*class="chart capacity capacity-throughput"/);
    expect(html).toMatch(/<svg [^>]*class="chart capacity capacity-p99"/);
    // Two points per level and series, in both charts.
    expect(html.match(/class="point-control"/g)).toHaveLength(4);
    expect(html.match(/class="point-faulted"/g)).toHaveLength(4);
    expect(html).not.toMatch(/<script/i);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('### Capacity of capacity-short');
    expect(md).toContain('| level | run | ok ops/s | p50 | p95 | p99 | op success | attempts/op |');
    expect(md.match(/^\| [14] \| (no-fault control|faulted) \|/gm)).toHaveLength(4);
  });

  it.each([
    [['--levels', '1,x'], /--levels <list>'.*expected a comma-separated list of ops in flight.*got "x"/],
    [['--rates', '0,5'], /got "0"/],
    [['--levels', '1', '--rates', '5'], /give exactly one of --levels .* or --rates/],
    [[], /give exactly one of --levels .* or --rates/],
    [['--levels', '2000'], /got "2000"/],
  ])('refuses %j in one line with exit 2', async (flags, message) => {
    const bad = await runCli(['capacity', profile, ...flags, '--out', join(dir, 'bad')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(message);
    expect(
      bad.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('(run with --help')),
    ).toHaveLength(1);
  });
});

describe('faultline capacity --rates (open loop)', () => {
  it('runs each rate on its fixed schedule: the plan decides how many ops, and latency counts from the intended start', async () => {
    const openOut = join(dir, 'open');
    const open = await runCli(['capacity', profile, '--rates', '4,12', '--out', openOut], { timeoutMs: 120_000 });
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toContain('Capacity of capacity-short: 2 level(s) of ops/s offered');
    const r: RunReport = JSON.parse(readFileSync(join(openOut, 'report.json'), 'utf8'));
    expect(r.capacity?.mode).toBe('rate');
    expect(r.profiles.map((p) => p.name)).toEqual([
      'capacity-short-r4-nofault',
      'capacity-short-r4',
      'capacity-short-r12-nofault',
      'capacity-short-r12',
    ]);
    // 1.5 s at 4 and 12 ops/s: 6 and 18 ops, whatever the latency (open loop), in both runs of a level.
    expect(r.capacity?.levels.map((l) => [l.control.ops, l.faulted.ops])).toEqual([
      [6, 6],
      [18, 18],
    ]);
    const h = parseHistories(readFileSync(join(openOut, 'history.jsonl'), 'utf8'), 'history.jsonl');
    // Op i of a 12 ops/s run was due at i × 83.3 ms after the first: its recorded start is that instant.
    const ops = [...h['capacity-short-r12'].ops!].sort((a, b) => a.opId.localeCompare(b.opId));
    ops.forEach((o, i) => {
      expect(o.startMs - ops[0].startMs).toBeCloseTo(Math.round((i * 1000) / 12), 6);
    });
  }, 130_000);
});
