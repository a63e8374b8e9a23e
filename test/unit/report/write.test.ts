import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../../src/cli/report-command.ts';
import { runReportSchema } from '../../../src/report/report-schema.ts';
import { REPORT_FILES, writeReports } from '../../../src/report/write.ts';
import { DOCUMENTED_METRIC_KEYS } from '../../helpers/report-shape.ts';
import { sampleHistories, sampleRun } from './fixtures.ts';

describe('writeReports', () => {
  let dir: string;
  let written: string[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'faultline-report-'));
    const histories = sampleHistories();
    histories.good.ops![0] = { ...histories.good.ops![0], visible: 'what the model saw' };
    written = await writeReports(join(dir, 'nested', 'out'), sampleRun(), histories);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes every file, report.json first, creating the directory', async () => {
    expect(written.map((p) => p.split(/[\\/]/).pop())).toEqual([...REPORT_FILES]);
    expect((await readdir(join(dir, 'nested', 'out'))).sort()).toEqual([...REPORT_FILES].sort());
  });

  it('report.json has the documented shape', async () => {
    const json = JSON.parse(await readFile(written[0], 'utf8'));
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(['schemaVersion', 'faultline', 'seed', 'startedAt', 'durationMs', 'profiles']),
    );
    expect(json.schemaVersion).toBe(2);
    expect(runReportSchema.safeParse(json).error?.issues).toBeUndefined();
    for (const p of json.profiles) {
      expect(Object.keys(p)).toEqual(
        expect.arrayContaining(['name', 'seed', 'policy', 'verdict', 'metrics', 'thresholds', 'decisionLogSha256']),
      );
      expect(['pass', 'fail']).toContain(p.verdict);
      for (const key of DOCUMENTED_METRIC_KEYS) {
        expect(p.metrics, key).toHaveProperty(key);
      }
      for (const w of p.metrics.recovery) {
        expect(Object.keys(w)).toEqual(expect.arrayContaining(['fault', 'offAtMs', 'recoveryMs', 'firstSuccessMs']));
      }
      expect(Object.keys(p.metrics.latencyMs)).toEqual(expect.arrayContaining(['p50', 'p90', 'p95', 'p99', 'max']));
      for (const t of p.thresholds) expect(Object.keys(t)).toEqual(expect.arrayContaining(['expr', 'actual', 'ok']));
    }
    expect(json.profiles[0].file).toBe(resolve('chaos-profiles/good.yaml'));
    expect(json.profiles[1].thresholds[0]).toMatchObject({ expr: 'duplicate_effects == 0', actual: 1, ok: false });
  });

  it('faultline report renders every file again from report.json and history.jsonl, the same as the run did', async () => {
    const runDir = join(dir, 'nested', 'out');
    const before = await Promise.all(written.map((p) => readFile(p, 'utf8')));
    const again = join(dir, 'again');
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      expect(await reportCommand(runDir, { out: again })).toBe(0);
    } finally {
      process.stderr.write = stderr;
    }
    for (const [i, name] of REPORT_FILES.entries()) {
      const text = await readFile(join(again, name), 'utf8');
      // The replay command names report.json where it now is.
      expect(text.replaceAll(join(again, 'report.json'), join(runDir, 'report.json')), name).toBe(before[i]);
    }
  });
});
