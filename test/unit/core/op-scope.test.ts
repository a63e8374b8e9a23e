// An op window's scope, decided per request from its logical key: the op index and the attempt number.
import { describe, expect, it } from 'vitest';
import { inOpScope } from '../../../src/core/op-scope.ts';

describe('inOpScope', () => {
  const scope = { from: 10, to: 12 };

  it('takes the ops from..to, both ends included, and no other', () => {
    const picked = [9, 10, 11, 12, 13].filter((i) => inOpScope(scope, `op-${String(i).padStart(5, '0')}/request-1`));
    expect(picked).toEqual([10, 11, 12]);
  });

  it('leaves out a request without a key or with a key that names no op', () => {
    expect(inOpScope(scope, undefined)).toBe(false);
    expect(inOpScope(scope, 'calibration/request-1')).toBe(false);
  });

  it('with firstAttempts, takes only those attempts; a request without an attempt number is then outside', () => {
    const first2 = { ...scope, firstAttempts: 2 };
    const attempts = [1, 2, 3].filter((n) => inOpScope(first2, `op-00011/attempt-${n}/request-1`));
    expect(attempts).toEqual([1, 2]);
    expect(inOpScope(first2, 'op-00011/request-1')).toBe(false);
    expect(inOpScope(scope, 'op-00011/attempt-7/request-2')).toBe(true);
  });
});
