import { describe, expect, it } from 'vitest';
import { describeDivergence, firstDivergence } from '../../../src/core/decision-diff.ts';
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
      stream: 'deps/fault/f0/op-00002/attempt-1/request-1',
      what: 'hit',
      expected: false,
      actual: true,
    });
    expect(describeDivergence(div)).toBe(
      'first divergence at op op-00002: deps/fault/f0/op-00002/attempt-1/request-1 hit was false, now true',
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
