// The next run sets up while the last one drains (`setUpDuringDrain`, which `faultline run` turns on where each
// profile has its own server and proxies): checked by report.json's times (the next run started before the last
// one ended, after its workload; with the setting off, the negative control, only after it ended), by the progress
// lines (still one run's lines after the other's), by the spares (each run after the first took one) and by the
// verdicts; and through `faultline run`, which turns it on for profiles with their own servers.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProfileReport, RunReport } from '../../src/measure/run-report.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { runSuite } from '../../src/run/run-suite.ts';
import { spareChildTally } from '../../src/targets/spare-child.ts';
import { runCli } from '../helpers/cli.ts';
import { childrenOf } from '../helpers/processes.ts';
import { shortProfile } from '../helpers/short-profile.ts';

const NAMES = ['first', 'second', 'third'];

async function suite(setUpDuringDrain: boolean, stopAt?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-overlap-'));
  for (const name of NAMES) writeFileSync(join(dir, `${name}.yaml`), shortProfile(name, '1s'));
  const lines: string[] = [];
  const events: string[] = [];
  const stop = new AbortController();
  const before = spareChildTally();
  const { run } = await runSuite(
    NAMES.map((name) => loadProfile(join(dir, `${name}.yaml`))),
    {
      network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
      signal: stop.signal,
      say: (line) => lines.push(line),
      onPhase: (phase, u) => {
        events.push(`${u} ${phase}`);
        if (`${u} ${phase}` === stopAt) stop.abort();
      },
      onProfileEnd: (_, u) => events.push(`${u} end`),
      setUpDuringDrain,
    },
  );
  const after = spareChildTally();
  return { run, lines, events, spares: { forked: after.forked - before.forked, taken: after.taken - before.taken } };
}

const startOf = (p: ProfileReport) => Date.parse(p.startedAt ?? '');
const endOf = (p: ProfileReport) => startOf(p) + (p.durationMs ?? 0);

describe('the next run sets up while the last one drains', () => {
  it('starts each run after the first during the last one drain, keeps the lines in order, and every run passes', async () => {
    const { run, lines, events, spares } = await suite(true);
    expect(run.profiles.map((p) => [p.name, p.verdict])).toEqual(NAMES.map((n) => [n, 'pass']));
    const at = (event: string) => events.indexOf(event);
    for (const [last, next] of [
      [0, 1],
      [1, 2],
    ]) {
      // The next run set up after the last one's workload (its drain had begun) and before the last one ended.
      expect(at(`${next} set-up`)).toBeGreaterThan(at(`${last} drain`));
      expect(at(`${next} set-up`)).toBeLessThan(at(`${last} end`));
      // Its times say the same: it started before the last one ended (a drain settles for 200 ms at least).
      expect(startOf(run.profiles[next])).toBeLessThan(endOf(run.profiles[last]));
    }
    // One run's lines, then the next's, though they overlapped.
    const heads = lines.filter((l) => /^\[\d\/3\]/.test(l) || /^ +PASS/.test(l));
    expect(
      heads.map((l) =>
        l
          .replace(/ \(.*$/, '')
          .replace(/ in .*$/, '')
          .trim(),
      ),
    ).toEqual(['[1/3] first', 'PASS', '[2/3] second', 'PASS', '[3/3] third', 'PASS']);
    // The spare each run after the first took was forked during the last one's workload.
    expect(spares).toEqual({ forked: 2, taken: 2 });
  });

  it('with the setting off (the negative control), each run starts only after the last one ended', async () => {
    const { run, events, spares } = await suite(false);
    expect(run.profiles.map((p) => p.verdict)).toEqual(['pass', 'pass', 'pass']);
    expect(events.indexOf('1 set-up')).toBeGreaterThan(events.indexOf('0 end'));
    expect(events.indexOf('2 set-up')).toBeGreaterThan(events.indexOf('1 end'));
    const [a, b, c] = run.profiles;
    expect(startOf(b)).toBeGreaterThanOrEqual(Math.floor(endOf(a)));
    expect(startOf(c)).toBeGreaterThanOrEqual(Math.floor(endOf(b)));
    expect(spares).toEqual({ forked: 2, taken: 2 });
  });

  it('stopped while one run drains and the next sets up: both end interrupted, the last is named not run, nothing is left', async () => {
    const { run, events } = await suite(true, '1 set-up');
    expect(events).toContain('0 drain');
    expect(run.profiles.map((p) => [p.name, p.verdict])).toEqual([
      ['first', 'interrupted'],
      ['second', 'interrupted'],
    ]);
    expect(run.profiles[1].notes.join('\n')).toMatch(/third/);
    expect(childrenOf(process.pid)).toEqual([]);
  });

  it('`faultline run` turns it on where each profile has its own server: the second profile starts before the first ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-overlap-cli-'));
    mkdirSync(join(dir, 'suite'));
    for (const name of ['a-first', 'b-second'])
      writeFileSync(join(dir, `suite/${name}.yaml`), shortProfile(name, '1s'));
    const out = join(dir, 'out');
    const cli = await runCli(['run', join(dir, 'suite'), '--out', out], { timeoutMs: 120_000 });
    expect(cli.code, cli.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    const [a, b] = report.profiles;
    expect([a.name, b.name]).toEqual(['a-first', 'b-second']);
    expect(startOf(b)).toBeLessThan(endOf(a));
    // The lines still come one profile after the other.
    expect(cli.stderr.indexOf('[2/2] b-second')).toBeGreaterThan(cli.stderr.indexOf('PASS'));
  });
});
