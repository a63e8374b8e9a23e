// A failing run produces every file, and each is what it claims: report.json valid against the published schema,
// junit.xml against schema/junit.xsd (xmllint), metrics in Prometheus text format with no promtool finding,
// trace.jsonl one line per attempt; `faultline report` renders the same files again; a baseline excuses a known
// failure through the CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/profile/load.ts';
import { parseHistories } from '../../src/report/history-file.ts';
import { runReportSchema } from '../../src/report/report-schema.ts';
import { REPORT_FILES } from '../../src/report/write.ts';
import { type CliResult, REPO, runCli } from '../helpers/cli.ts';
import { parseExposition } from '../unit/report/prom-parse.ts';
import { failingProfile } from './report-run.ts';

describe('the files of a failing run', () => {
  const { dir, file } = failingProfile();
  const out = join(dir, 'run');
  let result: CliResult;
  beforeAll(async () => {
    result = await runCli(['run', file, '--out', out, '--metrics-out', join(out, 'metrics.prom')], {
      timeoutMs: 90_000,
    });
  }, 100_000);
  const read = (name: string) => readFileSync(join(out, name), 'utf8');

  it('exits 1 and writes every report', () => {
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.code).toBe(1);
    for (const name of [...REPORT_FILES, 'metrics.prom']) expect(read(name).length, name).toBeGreaterThan(100);
    expect(result.stdout).toContain(
      '❌ FAIL payments-naive: duplicate_effects == 0: expected duplicate_effects == 0, actual',
    );
    expect(result.stdout).toMatch(/\n1 run\(s\): passed 0, failed 1, inert 0, inconclusive 0, interrupted 0\n/);
  });

  it('report.json is valid against the published schema', () => {
    const report = JSON.parse(read('report.json'));
    expect(runReportSchema.safeParse(report).error?.issues).toBeUndefined();
    expect(report.schemaVersion).toBe(2);
    // The profile's two thresholds, then the implicit unattributed_effects == 0 (or n/a).
    expect(report.profiles[0].thresholds.map((t: { ok: boolean }) => t.ok)).toEqual([false, true, true]);
    expect(report.profiles[0].thresholds[2]).toMatchObject({ metric: 'unattributed_effects', implicit: true });
  });

  it('junit.xml is valid against schema/junit.xsd and each failure carries the replay command', () => {
    const check = execFileSync(
      'xmllint',
      ['--noout', '--schema', join(REPO, 'schema/junit.xsd'), join(out, 'junit.xml')],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    expect(check).toBe('');
    const xml = read('junit.xml');
    expect(xml).toContain(`faultline run ${file} --seed 7 --policy naive`);
    expect(xml).toContain(`faultline replay ${join(out, 'report.json')}`);
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('xmllint does reject a junit.xml that breaks the schema', () => {
    const broken = join(dir, 'broken.xml');
    writeFileSync(broken, read('junit.xml').replace(/ tests="\d+"/, ' tests="many"'));
    expect(() =>
      execFileSync('xmllint', ['--noout', '--schema', join(REPO, 'schema/junit.xsd'), broken], { stdio: 'pipe' }),
    ).toThrow(/fails to validate/);
  });

  it('metrics.prom parses as Prometheus text and holds the failing number', () => {
    const families = parseExposition(read('metrics.prom'));
    const dup = families.get('faultline_duplicate_effects')?.samples[0];
    expect(dup?.labels).toEqual({ profile: 'payments-naive', policy: 'naive' });
    expect(dup?.value).toBe(JSON.parse(read('report.json')).profiles[0].metrics.duplicateEffects);
  });

  // promtool is Prometheus's own lint: in CI (CI=true) it must be there (.ci/run installs it); elsewhere its
  // absence skips these two, never passes them.
  const promtool = hasPromtool();
  const checkMetrics = (text: string) =>
    spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });

  it.skipIf(!promtool && process.env.CI !== 'true')('promtool check metrics finds nothing in metrics.prom', () => {
    const check = checkMetrics(read('metrics.prom'));
    expect(check.error).toBeUndefined();
    expect(`${check.stdout}${check.stderr}`).toBe('');
    expect(check.status).toBe(0);
  });

  it.skipIf(!promtool && process.env.CI !== 'true')('promtool does report a name against the conventions', () => {
    const renamed = read('metrics.prom').replaceAll('faultline_duplicate_effects', 'faultline_duplicate_effects_total');
    const check = checkMetrics(renamed);
    expect(`${check.stdout}${check.stderr}`).toContain(
      'faultline_duplicate_effects_total non-counter metrics should not have "_total" suffix',
    );
    expect(check.status).not.toBe(0);
  });

  it('trace.jsonl has one line per recorded attempt, with what a person debugging needs', () => {
    const history = parseHistories(read('history.jsonl'), 'history.jsonl')['payments-naive'];
    const attempts = read('trace.jsonl')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'attempt');
    expect(attempts).toHaveLength(history.attempts!.length);
    for (const a of attempts) {
      expect(Object.keys(a)).toEqual(
        expect.arrayContaining(['opId', 'attempt', 'tool', 'outcome', 'latencyMs', 'faults']),
      );
    }
    expect(attempts.some((a) => a.outcome === 'failed' && a.faults.length > 0 && a.errorCode)).toBe(true);
  });

  it('faultline report renders the same reports again from the run directory', async () => {
    const again = join(dir, 'again');
    const rerender = await runCli(['report', out, '--out', again]);
    expect(rerender.code).toBe(0);
    for (const name of ['junit.xml', 'report.html', 'summary.md', 'trace.jsonl']) {
      const text = readFileSync(join(again, name), 'utf8').replaceAll(
        join(again, 'report.json'),
        join(out, 'report.json'),
      );
      expect(text, name).toBe(read(name));
    }
  });

  it('a baseline that lists the failure excuses it on the next run, and says so', async () => {
    const baseline = join(dir, 'baseline.json');
    const update = await runCli(['baseline', 'update', out, '--out', baseline]);
    expect(update.code).toBe(0);
    const written = JSON.parse(readFileSync(baseline, 'utf8'));
    expect(written.profiles[0].knownFailures).toEqual(['duplicate_effects == 0']);
    // Thresholds only: the timing of a loaded CI machine is not what this test is about.
    writeFileSync(baseline, JSON.stringify({ ...written, tolerances: {} }));
    const next = join(dir, 'next');
    const run = await runCli(['run', file, '--out', next, '--baseline', baseline], { timeoutMs: 90_000 });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.stdout).toContain(`baseline ${baseline}: no regression`);
    expect(run.stdout).toContain('payments-naive (naive) known-failure: still fails as the baseline says');
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(next, 'report.json'), 'utf8')).baseline).toMatchObject({ ok: true });
    expect(readFileSync(join(next, 'summary.md'), 'utf8')).toContain(': no regression');
  }, 100_000);

  it('a bad baseline is one line and exit 2, before anything runs', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"baselineVersion": 1}');
    const run = await runCli(['run', file, '--out', join(dir, 'never'), '--baseline', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      new RegExp(`^faultline: ${bad}: faultline: .*expected string, received undefined$`),
    );
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });
});

function hasPromtool(): boolean {
  return spawnSync('promtool', ['--version'], { stdio: 'ignore' }).error === undefined;
}

describe("report.json's clock", () => {
  it("a time window is placed by workloadOffsetMs on the workload's clock, which the profile's start: uses", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-clock-'));
    const file = join(dir, 'clock.yaml');
    writeFileSync(
      file,
      `name: clock
seed: 5
duration: 1.5s
workload:
  rate: 10
  mix:
    - tool: search_documents
      args: { query: invoice }
faults:
  - { seam: dependency, kind: status, dependency: search, status: 503, start: 0.5s, stop: 1s }
expect:
  - ops > 0
`,
    );
    const out = join(dir, 'out');
    await runCli(['run', file, '--out', out], { timeoutMs: 120_000 });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const { workloadOffsetMs, metrics } = report.profiles[0];
    const planned = loadProfile(file).profile.faults[0].start ?? Number.NaN;
    // Set-up comes first: the run clock starts well before the workload.
    expect(workloadOffsetMs).toBeGreaterThan(0);
    const onAtWorkloadMs = metrics.faultWindows[0].onAtMs - workloadOffsetMs;
    // Applying the fault takes a round trip and the timer may fire late on a loaded machine; never early.
    const SCHEDULING_SLOP_MS = 1000;
    expect(onAtWorkloadMs).toBeGreaterThanOrEqual(planned);
    expect(onAtWorkloadMs).toBeLessThan(planned + SCHEDULING_SLOP_MS);
  }, 120_000);
});
