// One report layout: a default-suite-like run (a protocol: auto profile, which runs in two pairings, beside two
// legacy ones) writes exactly one report.json, junit.xml, trace.jsonl, summary.md and report.html at the top of
// --out, no folder per pairing; docs/nightly.md's workflows find every file they name in a real run's output, and
// its junit.xml validates against schema/junit.xsd.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { REPORT_FILES } from '../../src/report/write.ts';
import { type CliResult, REPO, runCli } from '../helpers/cli.ts';

const PROFILES = ['unsupported-version', 'redaction-leaky', 'baseline'].map((n) =>
  join(REPO, `chaos-profiles/${n}.yaml`),
);

/** Every `faultline-report/...` path a workflow step names (run lines, artifact paths, report_paths). */
function workflowPaths(): string[] {
  const doc = readFileSync(join(REPO, 'docs/nightly.md'), 'utf8');
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  const paths = new Set<string>();
  for (const block of blocks) {
    for (const yaml of parseAllDocuments(block)) {
      const text = JSON.stringify(yaml.toJS());
      for (const m of text.matchAll(/faultline-report\/[A-Za-z0-9._/-]*/g)) paths.add(m[0]);
    }
  }
  return [...paths];
}

describe('the report layout of a run in several pairings', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'faultline-layout-'));
  const out = join(cwd, 'faultline-report');
  let result: CliResult;
  beforeAll(async () => {
    // The workflow's own command line (default --out), without the baseline it would first have to take.
    result = await runCli(['run', ...PROFILES, '--metrics-out', 'faultline-report/metrics.prom'], {
      cwd,
      timeoutMs: 170_000,
    });
  }, 180_000);

  it('writes one file of each kind at the top of --out and no folder per pairing', () => {
    expect(result.stderr).not.toMatch(/internal error/);
    expect(readdirSync(out).sort()).toEqual([...REPORT_FILES, 'metrics.prom'].sort());
    for (const name of readdirSync(out)) expect(statSync(join(out, name)).isFile(), name).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const runs = report.profiles.map((p: { name: string; pairing?: string }) => `${p.name}@${p.pairing}`);
    const skipped = (report.notApplicable ?? []).map(
      (n: { profile: string; pairing: string }) => `${n.profile}@${n.pairing}`,
    );
    expect([...runs, ...skipped].filter((r: string) => r.startsWith('unsupported-version@')).sort()).toEqual([
      'unsupported-version@auto',
      'unsupported-version@auto-sdk1',
    ]);
    expect(runs).toContain('baseline@legacy');
    // The matrix has a row only for the profile that ran in several pairings.
    expect(report.matrix.rows.map((r: { profile: string }) => r.profile)).toEqual(['unsupported-version']);
  });

  it('junit.xml has a suite per profile and pairing that ran, valid against schema/junit.xsd', () => {
    const file = join(out, 'junit.xml');
    execFileSync('xmllint', ['--noout', '--schema', join(REPO, 'schema/junit.xsd'), file], { stdio: 'pipe' });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const suites = [...readFileSync(file, 'utf8').matchAll(/<testsuite name="([^"]*)"/g)].map((m) => m[1]);
    expect(suites).toEqual(
      report.profiles.map((p: { name: string; pairing?: string }) => (p.pairing ? `${p.name} [${p.pairing}]` : p.name)),
    );
  });

  it('trace.jsonl names each line’s profile and pairing', () => {
    const lines = readFileSync(join(out, 'trace.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const starts = lines.filter((e) => e.type === 'profile.start').map((e) => `${e.profile}@${e.pairing}`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(starts.sort()).toEqual(
      report.profiles.map((p: { name: string; pairing?: string }) => `${p.name}@${p.pairing}`).sort(),
    );
  });

  it('every file docs/nightly.md’s workflows publish exists in the run’s output', () => {
    const paths = workflowPaths();
    expect(paths).toEqual(expect.arrayContaining(['faultline-report/summary.md', 'faultline-report/junit.xml']));
    for (const path of paths) expect(existsSync(join(cwd, path)), path).toBe(true);
  });

  it('prints a console summary of a screen that points at report.html', () => {
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(45);
    expect(lines[1]).toMatch(/^\d+ run\(s\): passed \d+/);
    expect(lines.at(-1)).toBe("details: faultline-report/report.html (--verbose: every profile's numbers)");
    expect(result.stdout).toContain('redaction-leaky');
    expect(result.stdout).not.toMatch(/PASS redaction-leaky/);
  });
});
