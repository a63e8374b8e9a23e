// `faultline run --jobs n` through the CLI: a small suite whose profiles end in another order than they start in
// (the first is the longest) gives the same files in the same order as one at a time: report.json, junit.xml,
// summary.md, history.jsonl and trace.jsonl list the profiles in profile order, each with the ops its own seed
// planned; and each profile's progress lines come out together.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/measure/run-report.ts';
import { type CliResult, runCli } from '../helpers/cli.ts';
import { shortProfile } from '../helpers/short-profile.ts';

const profile = shortProfile;

const NAMES = ['a-long', 'b-short', 'c-stdio', 'd-short'];
const dir = mkdtempSync(join(tmpdir(), 'faultline-jobs-'));
mkdirSync(join(dir, 'suite'));
writeFileSync(join(dir, 'suite/a-long.yaml'), profile('a-long', '5s'));
writeFileSync(join(dir, 'suite/b-short.yaml'), profile('b-short', '1s'));
writeFileSync(join(dir, 'suite/c-stdio.yaml'), profile('c-stdio', '1s', 'reference-stdio'));
writeFileSync(join(dir, 'suite/d-short.yaml'), profile('d-short', '1s'));

interface Ran {
  cli: CliResult;
  out: string;
  report: RunReport;
  file: (name: string) => string;
}

async function run(jobs: number): Promise<Ran> {
  const out = join(dir, `out-${jobs}`);
  const cli = await runCli(['run', join(dir, 'suite'), '--jobs', String(jobs), '--out', out], { timeoutMs: 170_000 });
  const file = (name: string) => readFileSync(join(out, name), 'utf8');
  return { cli, out, report: JSON.parse(file('report.json')), file };
}

/** Each profile's planned ops, in file order: [profile, op id, tool, arguments] of every first attempt. */
function plannedOps(trace: string): string[] {
  return trace
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((e) => e.type === 'attempt' && e.attempt === 1)
    .map((e) => `${e.profile} ${e.opId} ${e.tool} ${JSON.stringify(e.args)}`);
}

/** The profile names in the order a file first mentions them. */
function order(text: string, pattern: RegExp): string[] {
  return [...new Set([...text.matchAll(pattern)].map((m) => m[1]))];
}

let one: Ran;
let three: Ran;
// Both at once: what is compared (files, order, planned ops, `ops >= 1`) is the same however busy the machine is.
beforeAll(async () => {
  [one, three] = await Promise.all([run(1), run(3)]);
}, 350_000);

describe('faultline run --jobs 3', () => {
  it('exits as the run does, with every profile run', () => {
    for (const ran of [one, three]) {
      expect(ran.cli.stderr).not.toMatch(/internal error/);
      expect(ran.cli.code, ran.cli.stderr).toBe(0);
      expect(ran.report.profiles.map((p) => [p.name, p.verdict])).toEqual(NAMES.map((n) => [n, 'pass']));
    }
  });

  it('the profiles ended in another order than they started in (so the order below is not by chance)', () => {
    // Several at once, a profile's lines come out when it ends.
    const ended = order(three.cli.stderr, /\] ([a-z-]+) \(seed/g);
    expect([...ended].sort()).toEqual(NAMES);
    expect(ended).not.toEqual(NAMES);
  });

  it('every file lists the profiles in profile order, as one at a time does', () => {
    for (const ran of [one, three]) {
      expect(ran.report.profiles.map((p) => p.name)).toEqual(NAMES);
      expect(order(ran.file('junit.xml'), /<testsuite name="([^"]+)"/g)).toEqual(NAMES);
      expect(order(ran.file('history.jsonl'), /^\{"profile":"([^"]+)"/gm)).toEqual(NAMES);
      // Profile by profile: a profile's events do not come back after the next one's began.
      const traced = ran
        .file('trace.jsonl')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).profile);
      expect(traced.filter((p, i) => p !== traced[i - 1])).toEqual(NAMES);
    }
  });

  it("each profile's ops are the ones its own seed planned, as one at a time", () => {
    expect(plannedOps(three.file('trace.jsonl'))).toEqual(plannedOps(one.file('trace.jsonl')));
    expect(three.report.profiles.map((p) => [p.seed, p.metrics.ops])).toEqual(
      one.report.profiles.map((p) => [p.seed, p.metrics.ops]),
    );
  });

  it("each profile's progress lines come out together: its start line right before its end line", () => {
    const lines = three.cli.stderr.split('\n');
    for (const name of NAMES) {
      const at = lines.findIndex((l) => l.includes(`] ${name} (seed`));
      expect(at, three.cli.stderr).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1], three.cli.stderr).toMatch(/^ {6}PASS in \d+\.\ds: \d+ ops/);
    }
  });
});

describe('faultline run --jobs 3, a profile judged against its faults-off control', () => {
  // The middle profile has a fault and a relative bound, so it runs its control first. Both run with no other
  // profile beside them: the profile before has ended when they start, the one after starts when they have ended.
  const CONTROLLED = ['x-first', 'y-controlled', 'z-after'];
  let ran: Ran;
  beforeAll(async () => {
    const suite = join(dir, 'controlled');
    mkdirSync(suite);
    writeFileSync(join(suite, 'x-first.yaml'), profile('x-first', '2s'));
    const faulted = profile('y-controlled', '1s').replace(
      'expect:\n',
      'faults:\n  - { seam: network, kind: latency, stream: downstream, latency: 20, start: 0.2s, stop: 0.8s }\nexpect:\n  - latency_p99_ms <= 1000 x control\n',
    );
    writeFileSync(join(suite, 'y-controlled.yaml'), faulted);
    writeFileSync(join(suite, 'z-after.yaml'), profile('z-after', '1s'));
    const out = join(dir, 'out-controlled');
    const cli = await runCli(['run', suite, '--jobs', '3', '--out', out], { timeoutMs: 170_000 });
    const file = (name: string) => readFileSync(join(out, name), 'utf8');
    ran = { cli, out, report: JSON.parse(file('report.json')), file };
  }, 180_000);

  it('ran the control, then the profile, with no other profile in flight beside them', () => {
    expect(ran.cli.stderr).not.toMatch(/internal error/);
    expect(ran.report.profiles.map((p) => p.name)).toEqual(CONTROLLED);
    const [x, y, z] = ran.report.profiles;
    expect(y.notes.join('\n')).toMatch(/the faults-off control ran first/);
    const start = (p: typeof x) => Date.parse(p.startedAt!);
    const end = (p: typeof x) => start(p) + p.durationMs!;
    // The control's time as its note gives it (to 0.1 s, so up to 50 ms over): it started no later than this.
    const controlMs = Number(/ops in ([\d.]+)s/.exec(y.notes.join('\n'))?.[1]) * 1000 - 50;
    // The control ran right before y, after x had ended; z started after y had ended.
    expect(start(y) - controlMs).toBeGreaterThanOrEqual(end(x));
    expect(start(z)).toBeGreaterThanOrEqual(end(y));
  });
});
