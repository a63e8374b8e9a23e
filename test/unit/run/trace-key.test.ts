import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/core/ledger.ts';
import { ownEffects, type RunScope, traceKey } from '../../../src/run/trace-key.ts';
import { idempotencyKey } from '../../../src/server/tools/types.ts';

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
  it('keys an op by run, shard and profile, in characters an idempotency key may hold', () => {
    const key = traceKey(scope(2), 'op-00003');
    expect(key).toBe('run-42:2-of-2:checkout:op-00003');
    expect(idempotencyKey.safeParse(`idem-${key}`).success).toBe(true);
    // Two profiles, two shards or two runs never share a key for the same op id.
    const keys = [scope(1), scope(2), scope(1, 'refunds'), scope(1, 'checkout', 'run-43')].map((s) =>
      traceKey(s, 'op-00003'),
    );
    expect(new Set(keys).size).toBe(4);
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

  it('refuses a run id that would make prefixes ambiguous or keys invalid', () => {
    for (const bad of ['a:b', 'a/b', '', 'x'.repeat(65)]) {
      expect(() => traceKey(scope(1, 'checkout', bad), 'op-1')).toThrow(/expected 1-64 of \[A-Za-z0-9._-\]/);
    }
  });
});
