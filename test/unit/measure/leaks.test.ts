import { describe, expect, it } from 'vitest';
import { findLeaks, mask } from '../../../src/measure/leaks.ts';
import { attempt, history, op } from './fixtures.ts';

const CANARIES = ['sk_live_CANARY_123456', 'db-pass-CANARY-9'];

describe('findLeaks', () => {
  const h = history({
    ops: [
      op('clean', 0, 10, 'ok', { visible: 'charged 12.00 EUR' }),
      op('leaky', 0, 10, 'ok', { visible: 'token sk_live_CANARY_123456 and again sk_live_CANARY_123456' }),
      op('both', 0, 10, 'fail', { visible: 'sk_live_CANARY_123456 / db-pass-CANARY-9' }),
      op('silent', 0, 10, 'fail'),
    ],
    attempts: [
      attempt('silent', 1, 0, 5, false, { message: 'connect failed: password=db-pass-CANARY-9' }),
      attempt('silent', 2, 5, 10, false, { message: 'again: password=db-pass-CANARY-9' }),
    ],
  });

  it('finds each canary once per op and place', () => {
    const leaks = findLeaks(h, { canaries: CANARIES });
    expect(leaks.map((l) => [l.opId, l.where])).toEqual([
      ['leaky', 'visible'],
      ['both', 'visible'],
      ['both', 'visible'],
      ['silent', 'attempt-message'],
    ]);
  });

  it('never repeats the secret in the finding', () => {
    for (const l of findLeaks(h, { canaries: CANARIES })) {
      expect(CANARIES).not.toContain(l.canary);
      expect(l.canary).toMatch(/^(sk_l|db-p)\*+$/);
    }
    expect(mask('abc')).toBe('***');
  });

  it('can skip attempt messages and finds nothing without canaries', () => {
    expect(findLeaks(h, { canaries: CANARIES, scanAttemptMessages: false })).toHaveLength(3);
    expect(findLeaks(h)).toHaveLength(0);
    expect(findLeaks(h, { canaries: [''] })).toHaveLength(0);
  });
});
