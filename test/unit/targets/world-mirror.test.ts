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

  it('gives a run its effects as a view: the same effects on every pass, as many as when it was read', () => {
    const mirror = new WorldMirror();
    const effect = (seq: number) => ({ seq, atMs: seq * 2, kind: 'payment.charge' as const, traceId: `op-${seq}` });
    for (let seq = 1; seq <= 3; seq++) mirror.apply({ type: 'effect', effect: effect(seq) });
    const view = mirror.effects();
    expect(Array.isArray(view)).toBe(false);
    expect(view.length).toBe(3);
    expect([...view]).toEqual([effect(1), effect(2), effect(3)]);
    // An effect that comes after the read is not in it (its length and passes agree), and is in the next read.
    mirror.apply({ type: 'effect', effect: effect(4) });
    expect([...view]).toEqual([effect(1), effect(2), effect(3)]);
    expect([...mirror.effects()]).toEqual([effect(1), effect(2), effect(3), effect(4)]);
    // A cleared mirror starts again; a view read before keeps what it was read with.
    mirror.clear();
    expect(mirror.effects().length).toBe(0);
    expect([...view]).toHaveLength(3);
  });
});
