// Issue 5's acceptance, the resilient half: every failure behind or in front of a tool runs as a shipped profile
// with thresholds, and the resilient client copes. application.test.ts runs the negative controls, which show every
// detector firing.
import { describe, expect, it } from 'vitest';
import { CANARY_MARKERS } from '../../../mocks/canaries.ts';
import { failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

export function applicationChecks(shipped: ShippedRun): void {
  describe('dependency failures', () => {
    it.each(['dependency-latency-ramp', 'dependency-hang', 'dependency-network-error', 'dependency-flap'])(
      '%s: the resilient client rides it out',
      (name) => {
        const r = shipped(name);
        expect(failing(r)).toBe('');
        expect(r.report.metrics.retriedOps).toBeGreaterThan(0); // the fault really hit
        expect(r.report.metrics.opsOk).toBe(r.report.metrics.ops);
      },
    );

    it('dependency-502: same-key retries replay the charge', () => {
      const r = shipped('dependency-502');
      expect(failing(r)).toBe('');
      expect(r.report.metrics.errorsByCode['DEPENDENCY.UNAVAILABLE']).toBeGreaterThan(0);
    });

    it('timeout-layering-broken: the warning, ghost writes avoided by lookups', () => {
      const r = shipped('timeout-layering-broken');
      expect(r.report.notes.join('\n')).toMatch(/timeout layering broken/);
      expect(failing(r)).toBe('');
      expect(r.report.metrics.reexecutionsAvoided).toBeGreaterThan(0);
      expect(r.report.metrics.lookups).toBeGreaterThanOrEqual(r.report.metrics.reexecutionsAvoided!);
    });
  });

  it.each(['rate-limit', 'rate-limit-quota'])('%s: Retry-After honoured, attempts bounded', (name) => {
    const r = shipped(name);
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['DEPENDENCY.RATE_LIMITED']).toBeGreaterThan(0);
    expect(r.report.metrics.retryAfterViolations).toBe(0);
  });

  it('auth expiry: one refresh, one retry, no escalation', () => {
    const r = shipped('auth-expiry');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['AUTH.TOKEN_EXPIRED']).toBeGreaterThan(0); // the mock really refused
    expect(Math.max(...r.history.ops!.map((o) => o.authRefreshes ?? 0))).toBe(1); // never more than one per op
  });

  it('cancellation: a cancelled report publishes nothing; a tool that ignores the abort leaves ghosts', () => {
    const honoured = shipped('cancellation');
    const ignored = shipped('cancellation-ignored');
    expect(failing(honoured)).toBe('');
    const cancelled = honoured.history.ops!.filter((o) => o.outcome === 'fail');
    expect(cancelled.length).toBeGreaterThan(0); // the client's timeout really fired
    const traced = new Set([...honoured.history.effects].map((e) => e.traceId));
    expect(cancelled.filter((o) => traced.has(o.opId))).toEqual([]);
    expect(failing(ignored)).toBe('');
    expect(ignored.report.metrics.ghostEffects).toBeGreaterThan(0);
  });

  it('model-side mistakes: the corrector repairs most, the loop guard stops the rest', () => {
    const r = shipped('model-mistakes');
    expect(failing(r)).toBe('');
    const kinds = new Set(r.history.ops!.map((o) => o.mistake).filter(Boolean));
    expect(kinds.size).toBeGreaterThanOrEqual(5);
    expect(r.history.ops!.some((o) => o.mistake === 'unknown-tool' && o.outcome === 'ok')).toBe(true);
    expect(r.history.ops!.filter((o) => o.loopGuardStop).every((o) => o.mistake === 'garbled')).toBe(true);
  });

  it('malformed dependency responses: classified as DEPENDENCY.BAD_RESPONSE, never a crash', () => {
    const r = shipped('malformed-responses');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.errorsByCode['DEPENDENCY.BAD_RESPONSE']).toBeGreaterThan(0);
    expect(r.report.error).toBeUndefined();
  });

  it('redaction: no canary reaches the model; the leaky server proves the scan fires', () => {
    const r = shipped('redaction');
    const leaky = shipped('redaction-leaky');
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
}
