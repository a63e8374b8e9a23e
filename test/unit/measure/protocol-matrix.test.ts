// The profiles x pairings table: one cell per pairing, n/a cells with their reason, and a difference only where
// a verdict differs or a key number spreads past its tolerance (never between a pairing that ran and one n/a).
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { buildProtocolMatrix } from '../../../src/measure/protocol-matrix.ts';
import type { ProfileReport, Verdict } from '../../../src/measure/run-report.ts';
import { history, op } from './fixtures.ts';

const PAIRINGS = ['legacy', 'modern', 'auto'].map((name) => ({ name, summary: name }));

function report(name: string, pairing: string, verdict: Verdict, okOps: number): ProfileReport {
  const ops = Array.from({ length: okOps }, (_, i) => op(`op${i}`, i * 10, i * 10 + 5));
  return {
    name,
    pairing,
    seed: 1,
    policy: 'resilient',
    verdict,
    metrics: computeMetrics(history({ ops })),
    thresholds: [],
    decisionLogSha256: 'x',
    notes: [],
  };
}

describe('protocol matrix', () => {
  it('puts each pairing in its column and n/a cells with their reason', () => {
    const m = buildProtocolMatrix(
      PAIRINGS,
      [report('a', 'legacy', 'pass', 3), report('a', 'auto', 'pass', 3)],
      [{ profile: 'a', pairing: 'modern', reason: 'no sessions' }],
    );
    expect(m.rows).toHaveLength(1);
    expect(m.rows[0].cells.modern).toEqual({ verdict: 'n/a', reason: 'no sessions', numbers: {} });
    expect(m.rows[0].cells.legacy.numbers.ops).toBe(3);
    // n/a next to two equal runs is no difference.
    expect(m.rows[0].differs).toEqual([]);
  });

  it('names a differing verdict and a key number past its tolerance', () => {
    const m = buildProtocolMatrix(
      PAIRINGS,
      [report('a', 'legacy', 'pass', 3), report('a', 'modern', 'fail', 4), report('a', 'auto', 'pass', 3)],
      [],
    );
    expect(m.rows[0].differs).toEqual(['verdict', 'ops']);
  });

  it('has a row only for a profile that ran in more than one pairing, not for one that ran in one', () => {
    const m = buildProtocolMatrix(
      PAIRINGS,
      [report('both', 'legacy', 'pass', 3), report('both', 'auto', 'pass', 3), report('once', 'legacy', 'pass', 3)],
      [{ profile: 'era', pairing: 'modern', reason: 'no sessions' }],
    );
    expect(m.rows.map((r) => r.profile)).toEqual(['both']);
    expect(m.pairings.map((p) => p.name)).toEqual(['legacy', 'modern', 'auto']);
  });
});
