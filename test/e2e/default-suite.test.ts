// The main job as the nightly CI runs it: `faultline run` over every shipped profile, once. What must hold on any
// machine, busy or quiet: every count threshold of every profile holds, every time bound is measured, no count is
// ever judged inconclusive, every n/a metric is null in report.json (and only those), and the exit code is the
// run's verdict's. The shipped profiles' resilient checks read this same run (suite-checks/). .ci/run
// runs this file a second time beside `stress-ng --cpu 2`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readHistories } from '../../src/cli/read-run.ts';
import type { History } from '../../src/core/history.ts';
import { historyOf } from '../../src/core/history-key.ts';
import { EXIT_CODE_OF, type RunReport } from '../../src/measure/run-report.ts';
import { loadCanMiss } from '../../src/measure/thresholds.ts';
import type { ProfileResult } from '../../src/run/run-profile.ts';
import { type CliResult, runCli } from '../helpers/cli.ts';
import { naViolations } from '../helpers/report-shape.ts';
import { expectPassed } from '../helpers/run.ts';
import { suiteChecks } from './suite-checks/index.ts';

const SUITE_TIMEOUT_MS = 20 * 60_000;
let result: CliResult;
let report: RunReport;
let summaryMd: string;
let histories: Record<string, History> | undefined;

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), 'faultline-suite-'));
  result = await runCli(['run', '--out', out], { timeoutMs: SUITE_TIMEOUT_MS });
  report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
  summaryMd = readFileSync(join(out, 'summary.md'), 'utf8');
  histories = readHistories(out);
}, SUITE_TIMEOUT_MS);

describe('the default suite', () => {
  it('ran every shipped profile and exits with its verdict', () => {
    expect(result.stderr).not.toMatch(/internal error/);
    expect(report.profiles.length).toBeGreaterThanOrEqual(40);
    expect(result.code).toBe(EXIT_CODE_OF[report.verdict]);
  });

  it('no count threshold is ever inconclusive: only a missed time bound load can explain may be, by name', () => {
    const counts = report.profiles.flatMap((p) =>
      p.thresholds.filter((t) => t.status === 'inconclusive' && !loadCanMiss(t)).map((t) => `${p.name}: ${t.expr}`),
    );
    expect(counts).toEqual([]);
  });

  it('every profile: count thresholds hold, time bounds are measured, every fault window hit', () => {
    const broken: string[] = [];
    for (const p of report.profiles) {
      try {
        expectPassed(p);
      } catch (e) {
        broken.push(`${p.name}${p.pairing ? ` [${p.pairing}]` : ''}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('n/a is null in report.json, exactly where a metric had nothing to measure', () => {
    const broken = report.profiles.flatMap((p) => naViolations(p.metrics).map((v) => `${p.name}: ${v}`));
    expect(broken).toEqual([]);
  });

  it('reads in ten seconds: the console summary fits a screen and summary.md stays under 10 KB', () => {
    const notPassed = report.profiles.filter((p) => p.verdict !== 'pass').length;
    // The summary starts at its header line; the progress lines before it are the run's, not the summary's.
    const summary = result.stdout.slice(result.stdout.lastIndexOf('Faultline ')).trimEnd().split('\n');
    expect(summary.length).toBeLessThanOrEqual(45 + notPassed);
    expect(Buffer.byteLength(summaryMd)).toBeLessThanOrEqual(10 * 1024 + 2048 * notPassed);
  });
});

/** One profile's run in this suite, as a single run of it would return it (its report and recorded history). */
function shipped(name: string, pairing = 'legacy'): ProfileResult {
  const found = report.profiles.filter((p) => p.name === name);
  expect(
    found.map((p) => p.pairing ?? 'legacy'),
    name,
  ).toEqual([pairing]);
  const history = historyOf(histories, found[0]);
  expect(history, `${name}: no history in history.jsonl`).toBeDefined();
  return { report: found[0], history: history! };
}

suiteChecks(shipped);
