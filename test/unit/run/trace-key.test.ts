import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/core/ledger.ts';
import { ownEffects, type RunScope, traceKey } from '../../../src/run/trace-key.ts';

const scope = (index: number, profile = 'checkout', runId = 'run-42'): RunScope => ({
  runId,
  shard: { index, count: 2 },
  profile,
});

const effect = (seq: number, traceId?: string): Effect => ({
  seq,
  atMs: seq,
  kind: 'payment.charge',
  ...(traceId !== undefined && { traceId }),
});

describe('trace keys on one shared ledger', () => {
  it('keys an op by run, shard and profile', () => {
    expect(traceKey(scope(2), 'op-00003')).toBe('run-42/2-of-2/checkout/op-00003');
  });

  it("gives each shard its own effects back under their op ids, and nobody else's", () => {
    // Two shards and two profiles with the same op ids, plus an earlier run, all in one ledger.
    const ledger = [
      effect(1, traceKey(scope(1), 'op-00000')),
      effect(2, traceKey(scope(2), 'op-00000')),
      effect(3, traceKey(scope(1, 'refunds'), 'op-00000')),
      effect(4, traceKey(scope(1, 'checkout', 'run-41'), 'op-00000')),
      effect(5, traceKey(scope(1), 'op-00000/lookup')),
      effect(6),
    ];
    expect(ownEffects(ledger, scope(1))).toEqual([effect(1, 'op-00000'), effect(5, 'op-00000/lookup'), effect(6)]);
    expect(ownEffects(ledger, scope(2)).map((e) => e.seq)).toEqual([2, 6]);
    expect(ownEffects(ledger, scope(1, 'refunds')).map((e) => e.seq)).toEqual([3, 6]);
  });

  it('refuses a run id that would make prefixes ambiguous', () => {
    expect(() => traceKey(scope(1, 'checkout', 'a/b'), 'op-1')).toThrow(/expected no "\/"/);
    expect(() => traceKey(scope(1, 'checkout', ''), 'op-1')).toThrow();
  });
});
