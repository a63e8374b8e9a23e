// Issue 5's acceptance, the control half: each shipped application profile's negative control fails its
// thresholds, so every detector is shown to fire. The resilient half runs on the default suite's own run
// (suite-checks/application.ts, registered by default-suite.test.ts); circuit-breaker compares the two, so it runs both
// here. The controls run two at a time (the e2e lane's maxConcurrency): each waits out its profile's windows on
// about a third of a core, and what each asserts is a detector firing (ops lost, a double charge, a retry before
// Retry-After, a blind retry), which a busier machine does not undo. Two run alone: rate-limit-quota (its quota is
// met only at the rate the run achieves) and circuit-breaker (its resilient run's retry and recovery counts are the
// ones a second run beside it once broke).
import { describe, expect, it } from 'vitest';
import type { ProfileResult } from '../../src/run/run-profile.ts';
import { failing, runShipped } from '../helpers/run.ts';

/** The 429s came (every window hit), and the client retried before their Retry-After ran out. */
function expectRetriedEarly(c: ProfileResult): void {
  expect(c.report.metrics.faultWindows.map((w) => (w.hits ?? 0) > 0)).toEqual(
    c.report.metrics.faultWindows.map(() => true),
  );
  expect(c.report.metrics.retryAfterViolations).toBeGreaterThan(0);
}

describe.concurrent('dependency failures', () => {
  it.each([
    ['dependency-latency-ramp', 'none'],
    ['dependency-hang', 'none'],
    ['dependency-network-error', 'none'],
    ['dependency-flap', 'none'],
  ] as const)('%s: the %s control loses ops', async (name, policy) => {
    const c = await runShipped(name, policy);
    expect(failing(c)).toBe(''); // controls: retry_success_rate < 0.5
    expect(c.report.metrics.opsOk).toBeLessThan(c.report.metrics.ops);
  });

  it('dependency-502: the naive control double-charges', async () => {
    const c = await runShipped('dependency-502', 'naive');
    expect(c.report.metrics.duplicateEffects).toBeGreaterThan(0);
  });

  it('timeout-layering-broken: the naive control double-charges', async () => {
    const c = await runShipped('timeout-layering-broken', 'naive');
    expect(c.report.metrics.duplicateEffects).toBeGreaterThan(0);
  });
});

describe.concurrent('rate limits, an expired token, model mistakes, malformed answers', () => {
  it('rate-limit: the naive control ignores Retry-After', async () => {
    expectRetriedEarly(await runShipped('rate-limit', 'naive'));
  });

  it('auth expiry: the naive control retries blindly and escalates', async () => {
    const c = await runShipped('auth-expiry', 'naive');
    expect(failing(c)).toBe(''); // controls.naive: auth_blind_retries > 0
  });

  it('model-side mistakes: the none control repairs nothing', async () => {
    const c = await runShipped('model-mistakes', 'none');
    expect(failing(c)).toBe('');
  });

  it('malformed dependency responses: the none control still classifies them, never a crash', async () => {
    const c = await runShipped('malformed-responses', 'none');
    expect(failing(c)).toBe('');
  });
});

// A quota refuses only the calls beyond it in each second, so how many meet it depends on the rate the run achieves:
// beside another control (and a loaded CI runner) it once counted no early retry at all. Alone, as before.
it('rate-limit-quota: the naive control ignores Retry-After', async () => {
  expectRetriedEarly(await runShipped('rate-limit-quota', 'naive'));
});

it('circuit-breaker: opens during the outage, fails fast, closes after; the report says when', async () => {
  const r = await runShipped('circuit-breaker', 'resilient');
  const c = await runShipped('circuit-breaker', 'naive');
  expect(failing(r)).toBe('');
  const m = r.report.metrics;
  const fault = m.recovery[0];
  expect(m.breakerOpenIntervals?.length).toBeGreaterThanOrEqual(1);
  const first = m.breakerOpenIntervals![0];
  expect(first.key).toBe('create_payment');
  // Opens inside the outage and closes after it ended (tolerance for two noisy cores).
  expect(first.openAtMs).toBeGreaterThanOrEqual(fault.onAtMs);
  expect(first.openAtMs).toBeLessThan(fault.offAtMs!);
  expect(first.closeAtMs).not.toBeNull();
  expect(first.closeAtMs!).toBeGreaterThanOrEqual(fault.offAtMs! - 100);
  expect(r.history.ops!.filter((o) => o.circuitOpen).every((o) => o.errorCode === 'DEPENDENCY.CIRCUIT_OPEN')).toBe(
    true,
  );
  // Failing fast costs fewer attempts against the dead API than the breakerless control.
  expect(m.attempts).toBeLessThan(c.report.metrics.attempts);
  expect(failing(c)).toBe(''); // controls.naive: breaker_opens == 0
});
