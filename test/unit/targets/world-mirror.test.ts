// The harness's copy of a server process's world (targets/world-mirror.ts): what a successor is seeded with after
// a crash is exactly what the dead process pushed, though the mirror keeps state records as text.
import { describe, expect, it } from 'vitest';
import type { StateRecord } from '../../../mocks/state.ts';
import { WorldMirror } from '../../../src/targets/world-mirror.ts';

const payment = (key: string, status: string): StateRecord => ({
  api: 'payments',
  key,
  value: { id: `ch_${key}`, status, amount_cents: 1250, meta: { note: 'tab\tquote"nl\n', refunds: [] } },
});

describe('world mirror', () => {
  it('seeds a successor with the latest record of every state key, value for value', () => {
    const mirror = new WorldMirror();
    mirror.apply({ type: 'state', record: payment('idem-op-00001', 'pending') });
    mirror.apply({ type: 'state', record: payment('idem-op-00002', 'succeeded') });
    mirror.apply({ type: 'state', record: payment('idem-op-00001', 'succeeded') });
    mirror.apply({ type: 'state', record: { api: 'search', key: 'idem-op-00001', value: null } });
    expect(mirror.snapshot().records).toEqual([
      payment('idem-op-00001', 'succeeded'),
      payment('idem-op-00002', 'succeeded'),
      { api: 'search', key: 'idem-op-00001', value: null },
    ]);
  });

  it('keeps effects and decisions in order, and forgets everything on clear', () => {
    const mirror = new WorldMirror();
    const effect = { seq: 1, atMs: 1.5, kind: 'payment.charge' as const, traceId: 'op-00001' };
    mirror.apply({ type: 'effect', effect });
    mirror.apply({ type: 'decision', decision: { stream: 'deps', what: 'fires', value: true } });
    mirror.apply({ type: 'hit', faultId: 'f0' });
    expect(mirror.snapshot()).toEqual({
      effects: [effect],
      records: [],
      decisions: [{ stream: 'deps', what: 'fires', value: true }],
    });
    expect(mirror.hits.all()).toEqual({ f0: 1 });
    mirror.clear();
    expect(mirror.snapshot()).toEqual({ effects: [], records: [], decisions: [] });
  });
});
