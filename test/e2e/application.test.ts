// Issue 5's acceptance: every failure behind or in front of a tool runs as a shipped profile with thresholds.
// Each profile's resilient run, then its negative control (one at a time: two side by side doubled the load on
// two cores, and the resilient runs' recovery and retry thresholds then failed for the machine, not the client);
// every detector is shown to fire in the control.
import { describe, expect, it } from 'vitest';
import { CANARY_MARKERS } from '../../mocks/canaries.ts';
import type { PolicyName } from '../../src/client/policies/index.ts';
import { failing, runShipped } from '../helpers/run.ts';

const both = async (name: string, control: PolicyName) => {
  const resilient = await runShipped(name, 'resilient');
  return [resilient, await runShipped(name, control)] as const;
};

describe('dependency failures', () => {
  it.each([
    ['dependency-latency-ramp', 'none'],
    ['dependency-hang', 'none'],
    ['dependency-network-error', 'none'],
    ['dependency-flap', 'none'],
  ] as const)('%s: the resilient client rides it out; the %s control loses ops', async (name, control) => {
    const [r, c] = await both(name, control);
    expect(failing(r)).toBe('');
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0); // the fault really hit
    expect(r.report.metrics.opsOk).toBe(r.report.metrics.ops);
    expect(failing(c)).toBe(''); // controls: retry_success_rate < 0.5
    expect(c.report.metrics.opsOk).toBeLessThan(c.report.metrics.ops);
  });

  it('dependency-502: same-key retries replay the charge; the naive control double-charges', async () => {
    const [r, c] = await both('dependency-502', 'naive');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['DEPENDENCY.UNAVAILABLE']).toBeGreaterThan(0);
    expect(c.report.metrics.duplicateEffects).toBeGreaterThan(0);
  });

  it('circuit-breaker: opens during the outage, fails fast, closes after; the report says when', async () => {
    const [r, c] = await both('circuit-breaker', 'naive');
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

  it('timeout-layering-broken: the warning, ghost writes avoided by lookups; the naive control double-charges', async () => {
    const [r, c] = await both('timeout-layering-broken', 'naive');
    expect(r.report.notes.join('\n')).toMatch(/timeout layering broken/);
    expect(failing(r)).toBe('');
    expect(r.report.metrics.reexecutionsAvoided).toBeGreaterThan(0);
    expect(r.report.metrics.lookups).toBeGreaterThanOrEqual(r.report.metrics.reexecutionsAvoided!);
    expect(c.report.metrics.duplicateEffects).toBeGreaterThan(0);
  });
});

describe('rate limits', () => {
  it.each(['rate-limit', 'rate-limit-quota'])(
    '%s: Retry-After honoured, attempts bounded; naive ignores it',
    async (name) => {
      const [r, c] = await both(name, 'naive');
      expect(failing(r)).toBe('');
      expect(r.report.metrics.errorsByCode['DEPENDENCY.RATE_LIMITED']).toBeGreaterThan(0);
      expect(r.report.metrics.retryAfterViolations).toBe(0);
      expect(c.report.metrics.retryAfterViolations).toBeGreaterThan(0);
    },
  );
});

describe('auth expiry', () => {
  it('one refresh, one retry, no escalation; naive retries blindly and escalates', async () => {
    const [r, c] = await both('auth-expiry', 'naive');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['AUTH.TOKEN_EXPIRED']).toBeGreaterThan(0); // the mock really refused
    expect(Math.max(...r.history.ops!.map((o) => o.authRefreshes ?? 0))).toBe(1); // never more than one per op
    expect(failing(c)).toBe(''); // controls.naive: auth_blind_retries > 0
  });
});

describe('cancellation', () => {
  it('a cancelled report publishes nothing; a tool that ignores the abort leaves ghosts', async () => {
    const [honoured, ignored] = await Promise.all([
      runShipped('cancellation', 'resilient'),
      runShipped('cancellation-ignored', 'resilient'),
    ]);
    expect(failing(honoured)).toBe('');
    const cancelled = honoured.history.ops!.filter((o) => o.outcome === 'fail');
    expect(cancelled.length).toBeGreaterThan(0); // the client's timeout really fired
    const traced = new Set(honoured.history.effects.map((e) => e.traceId));
    expect(cancelled.filter((o) => traced.has(o.opId))).toEqual([]);
    expect(failing(ignored)).toBe('');
    expect(ignored.report.metrics.ghostEffects).toBeGreaterThan(0);
  });
});

describe('model-side mistakes', () => {
  it('the corrector repairs most, the loop guard stops the rest; the none control repairs nothing', async () => {
    const [r, c] = await both('model-mistakes', 'none');
    expect(failing(r)).toBe('');
    const kinds = new Set(r.history.ops!.map((o) => o.mistake).filter(Boolean));
    expect(kinds.size).toBeGreaterThanOrEqual(5);
    expect(r.history.ops!.some((o) => o.mistake === 'unknown-tool' && o.outcome === 'ok')).toBe(true);
    expect(r.history.ops!.filter((o) => o.loopGuardStop).every((o) => o.mistake === 'garbled')).toBe(true);
    expect(failing(c)).toBe('');
  });
});

describe('malformed dependency responses', () => {
  it('classified as DEPENDENCY.BAD_RESPONSE, never a crash', async () => {
    const [r, c] = await both('malformed-responses', 'none');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['DEPENDENCY.BAD_RESPONSE']).toBeGreaterThan(0);
    expect(r.report.error).toBeUndefined();
    expect(failing(c)).toBe('');
  });
});

describe('redaction', () => {
  it('no canary reaches the model; the leaky server proves the scan fires', async () => {
    const [r, leaky] = await Promise.all([
      runShipped('redaction', 'resilient'),
      runShipped('redaction-leaky', 'resilient'),
    ]);
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['DEPENDENCY.UNAVAILABLE']).toBeGreaterThan(0);
    expect(failing(leaky)).toBe('');
    expect(leaky.report.metrics.leaks).toBeGreaterThan(0);
    // Every kind the fault plants is found, in every op that had a canary-stuffed 500 (a finding is one per op,
    // place and kind), whether or not a retry succeeded afterwards.
    const kinds = Object.keys(CANARY_MARKERS);
    expect(Object.keys(leaky.report.metrics.leaksByKind).sort()).toEqual([...kinds].sort());
    const stuffed = new Set(
      leaky.history.attempts!.filter((a) => a.errorCode === 'DEPENDENCY.UNAVAILABLE').map((a) => a.opId),
    );
    expect(stuffed.size).toBeGreaterThan(0);
    for (const kind of kinds) expect(leaky.report.metrics.leaksByKind[kind], kind).toBe(stuffed.size);
    expect(Object.values(r.report.metrics.leaksByKind).every((n) => n === 0)).toBe(true);
  });
});
