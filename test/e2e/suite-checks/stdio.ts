// The stdio profiles, the resilient half: the reference server over stdio, spawned by the client, faults on its
// stdout, crash and respawn with the ledger kept. targets.test.ts runs the control; stdio-modern.test.ts the
// same profiles on the 2026-07-28 wire.
import { expect, it } from 'vitest';
import type { ProfileResult } from '../../../src/run/run-profile.ts';
import { failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)] ?? Number.NaN;
const median = (xs: number[]) => quantile(xs, 0.5);
const note = (r: ProfileResult, re: RegExp) => r.report.notes?.find((n) => re.test(n));
const messages = (r: ProfileResult) => r.history.attempts!.filter((a) => !a.ok).map((a) => a.message ?? '');

export function stdioChecks(shipped: ShippedRun): void {
  it('stdio-crash: the child is killed mid-run, the client spawns a new one, nothing lost or doubled', () => {
    const r = shipped('stdio-crash');
    expect(failing(r)).toBe('');
    expect(note(r, /spawned 2 server process\(es\); 1 killed/)).toBeDefined();
    const crash = r.history.faults[0];
    // The new child charged the calls the crash broke and the ones after it. What the killed child committed
    // before a kill placed in time depends on the machine: targets.test.ts kills it after ops that have ended.
    expect([...r.history.effects].filter((e) => e.atMs > crash.onMs).length).toBeGreaterThan(5);
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0);
  });

  it('stdio-oversized-line: an 11 MiB line closes the transport; classified as a framing failure', () => {
    const r = shipped('stdio-oversized-line');
    expect(failing(r)).toBe('');
    expect(note(r, /1 line\(s\) over the framing limit closed the transport/)).toBeDefined();
    expect(messages(r).some((m) => /stdio framing: ReadBuffer exceeded maximum size of 10485760 bytes/.test(m))).toBe(
      true,
    );
    expect(note(r, /spawned [2-9] server process/)).toBeDefined();
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0);
  });

  it('stdio-malformed-line: bad lines before answers change nothing; instead of answers they cost a retry', () => {
    const r = shipped('stdio-malformed-line');
    expect(failing(r)).toBe('');
    const spoiled = Number(/malformed-line (\d+)/.exec(note(r, /exchanges spoiled/) ?? '')?.[1]);
    const reported = Number(/(\d+) malformed line\(s\)/.exec(note(r, /malformed line\(s\) reported/) ?? '')?.[1]);
    expect(spoiled).toBeGreaterThan(5);
    expect(reported).toBe(spoiled); // every bad line reached onerror, none was taken for an answer
    const [before, instead] = r.history.faults;
    const inWindow = (w: { onMs: number; offMs?: number }) => (a: { startMs: number }) =>
      a.startMs >= w.onMs && a.startMs < (w.offMs ?? Number.POSITIVE_INFINITY);
    expect(r.history.attempts!.filter(inWindow(before)).every((a) => a.ok)).toBe(true);
    expect(r.history.attempts!.filter(inWindow(instead)).some((a) => a.errorCode === 'LINK.TIMEOUT')).toBe(true);
  });

  it('stdio-slow-writes: answers dribble out in chunks, latency rises in the window, nothing fails', () => {
    const r = shipped('stdio-slow-writes');
    expect(failing(r)).toBe('');
    const w = r.history.faults[0];
    const latency = (o: { startMs: number; endMs: number }) => o.endMs - o.startMs;
    const inside = r.history.ops!.filter((o) => o.startMs >= w.onMs && o.startMs < w.offMs!).map(latency);
    const outside = r.history.ops!.filter((o) => o.startMs < w.onMs - 200 || o.startMs > w.offMs! + 1000).map(latency);
    expect(inside.length).toBeGreaterThan(10);
    // 48-byte chunks 15 ms apart: a payment answer alone takes ~100 ms to write, a search page ~500 ms.
    // 60% of answers are slowed (plus whatever queues behind them): the upper quartile pays the chunking. The
    // baseline is noisy on busy cores, so compare the difference, not a ratio.
    expect(quantile(inside, 0.75) - median(outside)).toBeGreaterThan(80);
    expect(Math.max(...inside)).toBeGreaterThan(150);
    expect(note(r, /exchanges spoiled on the pipe: slow-write \d+/)).toBeDefined();
  });
}
