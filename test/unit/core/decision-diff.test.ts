import { describe, expect, it } from 'vitest';
import { compareDecisions, describeDivergence, firstDivergence } from '../../../src/core/decision-diff.ts';
import type { DecisionRecord } from '../../../src/core/history.ts';

const d = (stream: string, what: string, value: DecisionRecord['value']): DecisionRecord => ({ stream, what, value });

describe('firstDivergence', () => {
  const original = [
    d('fault/f0-dependency-status', 'on', true),
    d('deps/fault/f0/op-00001/attempt-1/request-1', 'hit', true),
    d('client/op-00001', 'backoff', 120),
    d('deps/fault/f0/op-00002/attempt-1/request-1', 'hit', false),
    d('workload/op2', 'tool', 'create_payment'),
  ];

  it('finds none when the same decisions arrive in another order', () => {
    const shuffled = [original[3], original[1], original[4], original[0], original[2]];
    expect(firstDivergence(original, shuffled)).toBeUndefined();
  });

  it('names the first op whose decisions differ, and the decision', () => {
    const changed = original.map((x) => (x.what === 'hit' && x.value === false ? { ...x, value: true } : x));
    const div = firstDivergence(original, changed)!;
    expect(div).toEqual({
      opId: 'op-00002',
      attempt: 1,
      stream: 'deps/fault/f0/op-00002/attempt-1/request-1',
      what: 'hit',
      expected: false,
      actual: true,
    });
    expect(describeDivergence(div)).toBe(
      'first divergence at op op-00002 attempt 1: deps/fault/f0/op-00002/attempt-1/request-1 hit was false, now true',
    );
  });

  it('reports run-level streams first, and missing or extra decisions', () => {
    expect(firstDivergence(original, original.slice(1))).toMatchObject({ opId: null, expected: true });
    expect(firstDivergence(original, [...original, d('client/op-00001', 'backoff', 300)])).toEqual({
      opId: 'op-00001',
      stream: 'client/op-00001',
      what: 'backoff',
      actual: 300,
    });
  });
});

describe('compareDecisions (what faultline replay prints)', () => {
  const keyed = (stream: string, what: string, value: DecisionRecord['value']): DecisionRecord => ({
    ...d(stream, what, value),
    keyed: true,
  });
  const original = [
    d('timeline', 'f0 on', 0),
    d('workload', 'tool', 0.25),
    keyed('deps/fault/f0/op-00001/attempt-1/request-1', 'fires', true),
    keyed('client/op-00001/attempt-1', 'backoff', 0.5),
  ];

  it('identical: same plan decisions, and the keys both runs reached drew the same; a key one run missed is timing', () => {
    const replay = [original[1], original[0], original[2]]; // attempt 1 was not retried this time
    const c = compareDecisions(original, replay);
    expect(c.divergence).toBeUndefined();
    expect(c.planDecisions).toBe(2);
    expect(c.keyed).toMatchObject({ common: 1, mismatched: [], onlyFirst: ['client/op-00001/attempt-1'] });
  });

  it('a plan decision that differs comes first; else a keyed draw with another value for the same key', () => {
    const plan = compareDecisions(original, [d('timeline', 'f0 on', 500), ...original.slice(1)]);
    expect(plan.divergence).toEqual({ opId: null, stream: 'timeline', what: 'f0 on', expected: 0, actual: 500 });
    const key = compareDecisions(original, [
      ...original.slice(0, 3),
      keyed('client/op-00001/attempt-1', 'backoff', 0.7),
    ]);
    expect(key.divergence).toEqual({
      opId: 'op-00001',
      attempt: 1,
      stream: 'client/op-00001/attempt-1',
      what: 'backoff',
      expected: 0.5,
      actual: 0.7,
    });
    expect(describeDivergence(key.divergence!)).toBe(
      'first divergence at op op-00001 attempt 1: client/op-00001/attempt-1 backoff was 0.5, now 0.7',
    );
  });
});
