// Every shipped profile proves its faults matter: `faultline run --faults off` runs each one with its `faults:`
// removed (seed, workload, client, target and thresholds as written), and each must then fail at least one
// threshold. A profile that passes without its faults has thresholds that prove nothing about them. The list is
// the folder's: every profile with faults, through the CLI once (and once more in the modern pairing for those its
// own protocol choice leaves n/a). A profile whose only misses without its faults are time bounds the machine's delay
// explains is a defect too: a shipped profile must prove its faults by a count, a hit or an n/a.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultsMatter } from '../../src/measure/faults-off.ts';
import type { ProfileReport, RunReport } from '../../src/measure/run-report.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { hasFaults } from '../../src/run/faults-off.ts';
import { REPO, runCli } from '../helpers/cli.ts';

const FOLDER = join(REPO, 'chaos-profiles');
const shipped = readdirSync(FOLDER)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => loadProfile(join(FOLDER, f)));
const faulted = shipped.filter((l) => hasFaults(l.profile));

async function faultsOff(args: string[]): Promise<{ code: number | null; run: RunReport; stderr: string }> {
  const out = mkdtempSync(join(tmpdir(), 'faultline-faults-off-'));
  const { code, stderr } = await runCli(['run', '--faults', 'off', ...args, '--out', out], { timeoutMs: 900_000 });
  const report = join(out, 'report.json');
  if (!existsSync(report)) throw new Error(`faultline run exited ${code} without a report:\n${stderr.slice(-2000)}`);
  return { code, stderr, run: JSON.parse(readFileSync(report, 'utf8')) };
}

/** "name: verdict, failed: ..." for a profile whose faults-off run did not fail as it should. */
const why = (p: ProfileReport) =>
  `${p.name}${p.pairing ? ` [${p.pairing}]` : ''}: ${p.verdict}${p.verdictReason ? ` (${p.verdictReason})` : ''}, failed: ${
    p.thresholds
      .filter((t) => !t.ok)
      .map((t) => t.expr)
      .join('; ') || 'none'
  }`;

describe('faultline run --faults off', () => {
  // About 45 profiles of 2-8 s each, three at a time: about 95 s beside the default suite (two at a time: 127 s).
  // What decides a control is a count, a hit or an n/a that fails without the faults; a busier machine adds no
  // fault hit, and a time bound it misses is inconclusive, which this test does not count as a failure.
  it('every shipped profile with faults fails at least one threshold without them', {
    timeout: 1_200_000,
  }, async () => {
    expect(faulted.length).toBeGreaterThan(30);
    const { code, run, stderr } = await faultsOff(['--jobs', '3', 'chaos-profiles']);
    const ran = new Set(run.profiles.map((p) => p.name));
    // A profile its own protocol choice leaves n/a everywhere runs in the modern pairing, its era.
    const unrun = faulted.filter((l) => !ran.has(l.profile.name));
    const again = unrun.length > 0 ? await faultsOff(['--protocol', 'modern', ...unrun.map((l) => l.file)]) : undefined;
    const profiles = [...run.profiles, ...(again?.run.profiles ?? [])];

    expect(run.faultsOff).toBeDefined();
    expect(profiles.every((p) => p.faultsOff === true)).toBe(true);
    expect(new Set(profiles.map((p) => p.name))).toEqual(new Set(faulted.map((l) => l.profile.name)));
    expect(stderr).toContain(
      `not run, no faults to turn off: ${shipped
        .filter((l) => !hasFaults(l.profile))
        .map((l) => l.profile.name)
        .join(', ')}`,
    );
    expect(profiles.filter((p) => !faultsMatter(p)).map(why)).toEqual([]);
    // Every profile failed as it should, so the control passes: exit 0.
    expect([code, again?.code ?? 0], stderr).toEqual([0, 0]);
    expect(run.faultsOff?.verdict).toBe('pass');
  });

  it('fails (exit 1) when a profile passes without its faults: the negative control', async () => {
    // dependency-5xx judged only by what holds whether or not the dependency fails.
    const dir = mkdtempSync(join(tmpdir(), 'faultline-faults-off-defect-'));
    const text = readFileSync(join(FOLDER, 'dependency-5xx.yaml'), 'utf8')
      .replace('name: dependency-5xx', 'name: holds-anyway')
      .replace(/^expect:[\s\S]*$/m, 'expect:\n  - duplicate_effects == 0\n  - ops >= 1\n');
    writeFileSync(join(dir, 'holds-anyway.yaml'), text);
    const out = join(dir, 'out');
    const { code, stdout } = await runCli(['run', '--faults', 'off', join(dir, 'holds-anyway.yaml'), '--out', out], {
      timeoutMs: 120_000,
    });
    const run: RunReport = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(stdout).toContain('FAULTS-OFF CONTROL');
    expect(run.profiles.map((p) => [p.name, p.verdict, p.faultsOff])).toEqual([['holds-anyway', 'pass', true]]);
    expect(run.faultsOff?.verdict).toBe('fail');
    expect(code).toBe(1);
    expect(stdout).toContain('FAULTS-OFF CONTROL');
    expect(stdout).toContain('DEFECT, every threshold held without its faults');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('Faults-off control (fail), not a real run');
  });

  it('refuses what would judge a control as a real run, in one line with exit 2', async () => {
    const { code, stderr } = await runCli(['run', '--faults', 'off', '--baseline', 'x.json', 'chaos-profiles']);
    expect([code, stderr.trim()]).toEqual([
      2,
      'faultline: --faults off runs controls, not the profiles: it cannot be combined with --baseline',
    ]);
    const none = await runCli(['run', '--faults', 'off', 'chaos-profiles/baseline.yaml']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^faultline: --faults off: none of .*baseline\.yaml has faults to turn off\n$/);
  });
});
