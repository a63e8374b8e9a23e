import { describe, expect, it } from 'vitest';
import { CANARIES, CANARY_MARKERS } from '../../../mocks/canaries.ts';
import { findLeaks, leaksByKind, mask } from '../../../src/measure/leaks.ts';
import { attempt, history, op } from './fixtures.ts';

const MARKERS = { token: 'sk_live_CANARY_123456', password: 'db-pass-CANARY-9' };

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

  it('finds each canary kind once per op and place, and counts by kind', () => {
    const leaks = findLeaks(h, { canaries: MARKERS });
    expect(leaks.map((l) => [l.opId, l.where, l.kind])).toEqual([
      ['leaky', 'visible', 'token'],
      ['both', 'visible', 'token'],
      ['both', 'visible', 'password'],
      ['silent', 'attempt', 'password'],
    ]);
    expect(leaksByKind(leaks, { canaries: MARKERS })).toEqual({ token: 2, password: 2 });
  });

  it('never repeats the secret in the finding', () => {
    for (const l of findLeaks(h, { canaries: MARKERS })) {
      expect(Object.values(MARKERS)).not.toContain(l.canary);
      expect(l.canary).toMatch(/^(sk_l|db-p)\*+$/);
    }
    expect(mask('abc')).toBe('***');
  });

  it('finds nothing without canaries', () => {
    expect(findLeaks(h)).toHaveLength(0);
    expect(findLeaks(h, { canaries: { empty: '' } })).toHaveLength(0);
  });

  it('finds a multi-line secret inside JSON-escaped text, unicode escapes, and notifications', () => {
    // The stack-trace canary has newlines: serialised into JSON they become \n, so the whole string never matches.
    const asJson = JSON.stringify({ error: { message: 'upstream', details: { raw: CANARIES.stackTrace } } });
    expect(asJson.includes(CANARIES.stackTrace)).toBe(false);
    const escaped = JSON.stringify(`token=${CANARY_MARKERS.bearerToken}`).replace(/f/g, '\\u0066');
    expect(escaped.includes(CANARY_MARKERS.bearerToken)).toBe(false);
    const found = findLeaks(
      history({
        ops: [op('a', 0, 10, 'fail')],
        attempts: [
          attempt('a', 1, 0, 5, false, { visible: asJson }),
          attempt('a', 2, 5, 10, false, { visible: escaped, notifications: [`progress: ${CANARIES.sql}`] }),
        ],
      }),
      { canaries: CANARY_MARKERS },
    );
    expect(found.map((f) => [f.where, f.kind])).toEqual([
      ['attempt', 'stackTrace'],
      ['attempt', 'bearerToken'],
      ['notification', 'sql'],
    ]);
  });
});
