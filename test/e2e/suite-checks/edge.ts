// Issue 4 (client/edge side), the resilient half: MCP-edge HTTP faults, client-side protocol version mismatches and
// oversized payloads, each shipped profile passing with the resilient client. edge.test.ts runs the controls.
import { expect, it } from 'vitest';
import { failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

export function edgeChecks(shipped: ShippedRun): void {
  it('mcp-edge-5xx: every op ends ok, nothing charged twice although some 5xx came after the charge', () => {
    const r = shipped('mcp-edge-5xx');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.retriedOps).toBeGreaterThan(0);
    // The edge's 5xx are the MCP endpoint's own answers, filed as such: not a dependency of the tool failing.
    const edge5xx = Object.entries(r.report.metrics.errorsByCode).filter(([code]) => /^EDGE\.HTTP_5\d\d$/.test(code));
    expect(edge5xx.reduce((n, [, count]) => n + count, 0)).toBeGreaterThan(0);
    expect(r.report.metrics.errorsByCode['DEPENDENCY.UNAVAILABLE']).toBeUndefined();
    expect(r.report.metrics.duplicateEffects).toBe(0);
  });

  it('mcp-edge-429: every retry waits at least the advised Retry-After, in both forms', () => {
    const r = shipped('mcp-edge-429');
    expect(failing(r)).toBe('');
    const advised = r.history.attempts!.filter((a) => a.retryAfterMs !== undefined);
    expect(advised.length).toBeGreaterThan(0);
    // Seconds form (1 s) and HTTP-date form (2 s, whole seconds: 1 to 2 s left) both showed up.
    expect(advised.some((a) => a.retryAfterMs === 1000)).toBe(true);
    expect(advised.some((a) => a.retryAfterMs! > 1000 && a.retryAfterMs! <= 2000)).toBe(true);
    const followed = advised.flatMap((a) => {
      const next = r.history.attempts!.find((b) => b.opId === a.opId && b.attempt === a.attempt + 1);
      return next ? [{ a, next }] : [];
    });
    // Advice that was followed by a retry must have been honoured; there must be some to check.
    expect(followed.length).toBeGreaterThan(0);
    for (const { a, next } of followed) expect(next.startMs - a.endMs).toBeGreaterThanOrEqual(a.retryAfterMs! - 1);
  });

  it('protocol-version-client: PROTO, not retried, detected fast, healthy again after each window', () => {
    const r = shipped('protocol-version-client');
    expect(failing(r)).toBe('');
    const codes = r.report.metrics.errorsByCode;
    expect(codes['PROTO.BAD_PROTOCOL_VERSION']).toBeGreaterThan(0);
    expect(codes['PROTO.VERSION_UNSUPPORTED']).toBeGreaterThan(0);
    const proto = r.history.attempts!.filter(
      (a) => a.errorCode?.startsWith('PROTO.') && a.errorCode !== 'PROTO.SESSION_NOT_FOUND',
    );
    expect(proto.every((a) => a.retryable === false && a.next === 'give-up')).toBe(true);
    expect(r.report.notes.join('\n')).toMatch(/session open\(s\) failed \(offered .*2026-07-28/);
  });

  it('protocol-version-client-negotiation: settles on the lower common version, reports it and the lost resumability', () => {
    const r = shipped('protocol-version-client-negotiation');
    expect(failing(r)).toBe('');
    expect(r.report.metrics.opsOk).toBe(r.report.metrics.ops);
    const notes = r.report.notes.join('\n');
    expect(notes).toContain('offered 2026-07-28, negotiated 2025-11-25');
    expect(notes).toMatch(/2024-11-05 \(\d+ sessions?\)/);
    expect(notes).toContain('resumability is silently off');
  });

  it('oversized-payloads: over-budget results paged or cut, 413 not retried, nothing lost', () => {
    const r = shipped('oversized-payloads');
    expect(failing(r)).toBe('');
    const budget = 262_144;
    // history.jsonl keeps the model-visible text's length only (visibleChars).
    const shown = r.history.ops!.map((o) => (o as { visibleChars?: number }).visibleChars ?? o.visible?.length);
    expect(shown.filter((n) => n !== undefined).length).toBeGreaterThan(0);
    for (const n of shown) expect(n ?? 0).toBeLessThanOrEqual(budget);
    const tooLarge = r.history.ops!.filter((o) => o.errorCode === 'VALIDATION.PAYLOAD_TOO_LARGE');
    expect(tooLarge.length).toBeGreaterThan(0);
    expect(tooLarge.every((o) => o.attempts === 1 && o.outcome === 'fail')).toBe(true);
    expect([...r.history.effects].filter((e) => tooLarge.some((o) => o.opId === e.traceId))).toHaveLength(0);
  });
}
