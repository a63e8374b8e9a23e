import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Progress } from '../../../src/cli/progress.ts';
import type { ProfileReport } from '../../../src/measure/run-report.ts';
import type { LoadedProfile } from '../../../src/profile/load.ts';

const profile = (name: string, duration: number) =>
  ({ file: `${name}.yaml`, profile: { name, duration }, warnings: [] }) as unknown as LoadedProfile;
const PROFILES = [profile('one', 3000), profile('two', 5000)];
const END = {} as ProfileReport;

function harness(live: boolean) {
  let now = 1_000_000;
  const out: string[] = [];
  const stream = { write: (s: string) => out.push(s) > 0, isTTY: live, columns: 200 };
  const progress = new Progress(PROFILES, { stream, live, intervalMs: 1000, now: () => now });
  return {
    progress,
    out,
    tick: (ms: number) => {
      now += ms;
      vi.advanceTimersByTime(ms);
    },
  };
}

describe('Progress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('on a terminal keeps one live line: profile, phase, ops, failures, elapsed and remaining time', () => {
    const { progress, out, tick } = harness(true);
    progress.onProfileStart(0, PROFILES[0]);
    progress.onPhase('set-up');
    tick(1000);
    progress.onPhase('workload');
    progress.onProgress(12, 2);
    tick(1000);
    const last = out.at(-1)!;
    expect(last.startsWith('\r\u001b[2K')).toBe(true);
    expect(last).not.toContain('\n');
    // 1 s of the 3 s workload done: 2 s + half the set-up guess (1.25 s) here, 5 s + 2.5 s for the next profile.
    expect(last).toBe('\r\u001b[2K[1/2] one workload · 12 ops, 2 failed · 1.0/3.0 s · 0:02 elapsed, ~0:11 left');
  });

  it('prints log lines above the live line and leaves nothing behind when stopped', () => {
    const { progress, out } = harness(true);
    progress.onProfileStart(1, PROFILES[1]);
    out.length = 0;
    progress.log('[2/2] two ...');
    expect(out).toEqual([
      '\r\u001b[2K',
      '[2/2] two ...\n',
      '\r\u001b[2K[2/2] two starting · 0 ops, 0 failed · 0.0/5.0 s · 0:00 elapsed, ~0:06 left',
    ]);
    progress.stop();
    expect(out.at(-1)).toBe('\r\u001b[2K');
    out.length = 0;
    progress.log('summary follows');
    progress.onPhase('drain');
    expect(out).toEqual(['summary follows\n']);
  });

  it('without a terminal prints plain periodic lines, no escape codes', () => {
    const { progress, out, tick } = harness(false);
    progress.onProfileStart(0, PROFILES[0]);
    progress.onPhase('workload');
    progress.log('[1/2] one ...');
    tick(1000);
    tick(1000);
    tick(500);
    expect(out).toEqual([
      '[1/2] one ...\n',
      'faultline: [1/2] one workload · 0 ops, 0 failed · 1.0/3.0 s · 0:01 elapsed, ~0:11 left\n',
      'faultline: [1/2] one workload · 0 ops, 0 failed · 2.0/3.0 s · 0:02 elapsed, ~0:10 left\n',
    ]);
    expect(out.join('')).not.toContain('\u001b');
    progress.stop();
    tick(5000);
    expect(out).toHaveLength(3);
  });

  it('learns the set-up and drain time from finished profiles for the estimate', () => {
    const { progress, out, tick } = harness(true);
    progress.onProfileStart(0, PROFILES[0]);
    tick(7000); // 3 s of workload + 4 s around it
    progress.onProfileEnd(END);
    progress.onProfileStart(1, PROFILES[1]);
    progress.onPhase('workload');
    expect(out.at(-1)).toContain('~0:07 left'); // 5 s + half of 4 s
  });

  it('a fixed op count shows ops done of the count and estimates what is left from the pace so far', () => {
    const capped = {
      file: 'big.yaml',
      profile: { name: 'big', duration: 60_000, workload: { concurrency: 64, ops: 1000 } },
      warnings: [],
    } as unknown as LoadedProfile;
    let now = 0;
    const out: string[] = [];
    const stream = { write: (s: string) => out.push(s) > 0, isTTY: true, columns: 200 };
    const progress = new Progress([capped], { stream, live: true, intervalMs: 1000, now: () => now });
    progress.onProfileStart(0, capped);
    progress.onPhase('workload');
    now += 10_000;
    progress.onProgress(250, 0);
    vi.advanceTimersByTime(1000);
    // 250 ops in 10 s: 750 more take 30 s, plus half the set-up guess; the 60 s duration plays no part.
    expect(out.at(-1)).toBe(
      '\r\u001b[2K[1/1] big workload · 250/1000 ops, 0 failed · 10.0 s · 0:10 elapsed, ~0:31 left',
    );
    progress.stop();
  });

  it('several profiles in flight (--jobs): each with its phase and ops on the line, the time left shared', () => {
    let now = 1_000_000;
    const out: string[] = [];
    const stream = { write: (s: string) => out.push(s) > 0, isTTY: true, columns: 200 };
    const progress = new Progress(PROFILES, { stream, live: true, intervalMs: 1000, now: () => now, jobs: 2 });
    progress.onProfileStart(0, PROFILES[0], 0);
    progress.onProfileStart(1, PROFILES[1], 1);
    progress.onPhase('workload', 1);
    progress.onProgress(7, 1, 1);
    now += 1000;
    vi.advanceTimersByTime(1000);
    // (3 s + 1.25 s) + (4 s left + 1.25 s), shared by two: about 4.75 s.
    expect(out.at(-1)).toBe(
      '\r\u001b[2K[1/2] one starting · 0 ops, 0 failed | [2/2] two workload · 7 ops, 1 failed · 0:01 elapsed, ~0:05 left',
    );
    progress.onProfileEnd(END, 0);
    vi.advanceTimersByTime(1000);
    expect(out.at(-1)).toContain('[2/2] two workload · 7 ops, 1 failed · 1.0/5.0 s ·');
    progress.stop();
  });

  it('defaults to plain lines when CI=true even on a terminal', () => {
    vi.stubEnv('CI', 'true');
    const out: string[] = [];
    const progress = new Progress(PROFILES, { stream: { write: (s: string) => out.push(s) > 0, isTTY: true } });
    progress.onProfileStart(0, PROFILES[0]);
    progress.stop();
    vi.unstubAllEnvs();
    expect(out).toEqual([]);
  });
});
