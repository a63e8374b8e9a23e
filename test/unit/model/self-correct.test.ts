// The scripted corrector repairs what the server's fieldErrors describe and nothing else; the loop guard stops a
// repeat of the same failing call.
import { describe, expect, it } from 'vitest';
import { correctArgs, correctTool } from '../../../src/model/corrector.ts';
import { LoopGuard } from '../../../src/model/loop-guard.ts';

describe('corrector', () => {
  it('finds the listed tool behind a camelCase or misspelt name, and nothing for a made-up one', () => {
    const tools = ['create_payment', 'get_payment_status', 'search_documents'];
    expect(correctTool('createPayment', tools)).toBe('create_payment');
    expect(correctTool('search_document', tools)).toBe('search_documents');
    expect(correctTool('launch_rocket', tools)).toBeUndefined();
  });

  it.each([
    ['a number sent as a string', { n: '1250' }, [{ path: 'n', message: 'bad', expected: 'number' }], { n: 1250 }],
    ['a string wrapped in a list', { q: ['x'] }, [{ path: 'q', message: 'bad', expected: 'string' }], { q: 'x' }],
    ['below a minimum', { n: -5 }, [{ path: 'n', message: 'bad', expected: '> 0' }], { n: 1 }],
    ['above a maximum', { n: 500 }, [{ path: 'n', message: 'bad', expected: '<= 100' }], { n: 100 }],
    [
      'an enum in the wrong case',
      { c: 'EMAIL' },
      [{ path: 'c', message: 'bad', expected: '"email" | "sms"' }],
      { c: 'email' },
    ],
    [
      'a code in the wrong case',
      { c: 'usd' },
      [{ path: 'c', message: 'bad', expected: 'match ^[A-Z]{3}$' }],
      { c: 'USD' },
    ],
    [
      'a flattened field',
      { 'amount.cents': 5 },
      [
        { path: 'amount_cents', message: 'Required', expected: 'number' },
        { path: 'amount.cents', message: 'unknown field', expected: 'no such field' },
      ],
      { amount_cents: 5 },
    ],
  ])('repairs %s', (_name, args, fieldErrors, fixed) => {
    expect(correctArgs(args, fieldErrors)).toEqual(fixed);
  });

  it('leaves a value it cannot repair as it was', () => {
    const args = { n: 'a lot' };
    expect(correctArgs(args, [{ path: 'n', message: 'bad', expected: 'number' }])).toEqual(args);
  });
});

describe('loop guard', () => {
  it('stops the same tool + arguments + error code, not a changed call or another code', () => {
    const guard = new LoopGuard();
    guard.recordFailure('pay', { n: 'a lot', k: 1 }, 'VALIDATION.INVALID_ARGUMENTS');
    expect(guard.wouldRepeat('pay', { k: 1, n: 'a lot' }, 'VALIDATION.INVALID_ARGUMENTS')).toBe(true);
    expect(guard.wouldRepeat('pay', { n: 5, k: 1 }, 'VALIDATION.INVALID_ARGUMENTS')).toBe(false);
    expect(guard.wouldRepeat('pay', { n: 'a lot', k: 1 }, 'DEPENDENCY.TIMEOUT')).toBe(false);
  });
});
