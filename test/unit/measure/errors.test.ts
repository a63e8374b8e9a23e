import { describe, expect, it } from 'vitest';
import { attempt, fed, history } from './fixtures.ts';

describe('error counts', () => {
  it('counts failed attempts by category and code, UNKNOWN when unclassified', () => {
    const h = history({
      attempts: [
        attempt('a', 1, 0, 1, false, { category: 'DEPENDENCY', errorCode: 'DEPENDENCY.TIMEOUT' }),
        attempt('a', 2, 1, 2, false, { category: 'DEPENDENCY', errorCode: 'DEPENDENCY.UNAVAILABLE' }),
        attempt('a', 3, 2, 3, true, { category: 'AUTH', errorCode: 'AUTH.EXPIRED' }), // ok: ignored
        attempt('b', 1, 0, 1, false, { category: 'AUTH', errorCode: 'AUTH.EXPIRED' }),
        attempt('c', 1, 0, 1, false),
      ],
    });
    const e = fed(h).errors;
    expect(e.errorsByCategory).toEqual({ AUTH: 1, DEPENDENCY: 2, UNKNOWN: 1 });
    expect(e.errorsByCode).toEqual({
      'AUTH.EXPIRED': 1,
      'DEPENDENCY.TIMEOUT': 1,
      'DEPENDENCY.UNAVAILABLE': 1,
      UNKNOWN: 1,
    });
    expect(Object.keys(e.errorsByCategory)).toEqual(['AUTH', 'DEPENDENCY', 'UNKNOWN']);
  });
});
