// The one Retry-After parser: delay-seconds, the three HTTP-date forms, lenient fractional seconds, junk refused.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/core/retry-after.ts';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['3', 3000],
    ['0', 0],
    [' 2 ', 2000],
    ['120', 120_000],
  ])('delay-seconds %j is %d ms', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  it.each([
    ['1.5', 1500],
    ['0.25', 250],
    ['1.0001', 1001],
  ])('fractional %j is honoured, rounded up to whole ms: %d', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  it.each([
    ['Thu, 01 Jan 2026 00:00:05 GMT', 5000],
    ['Thursday, 01-Jan-26 00:00:07 GMT', 7000],
    ['Thu Jan  1 00:00:09 2026', 9000],
    ['Wed, 31 Dec 2025 23:00:00 GMT', 0],
  ])('HTTP-date %j is %d ms from now (a past date is 0)', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  it.each([
    null,
    undefined,
    '',
    'soon',
    '-1',
    '+5',
    '1e3',
    '1.',
    '.5',
    '2026-01-01',
    '2026-01-01T00:00:05Z',
    'Thu, 32 Foo',
  ])('refuses %j', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });

  it('defaults "now" to the wall clock', () => {
    const inTen = new Date(Math.ceil((Date.now() + 10_000) / 1000) * 1000).toUTCString();
    const ms = parseRetryAfter(inTen)!;
    expect(ms).toBeGreaterThan(8_000);
    expect(ms).toBeLessThanOrEqual(11_000);
  });
});
