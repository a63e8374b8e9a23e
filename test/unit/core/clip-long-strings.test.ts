import { describe, expect, it } from 'vitest';
import { clipLongStrings, MAX_KEPT_CHARS } from '../../../src/core/clip-long-strings.ts';

describe('clipLongStrings', () => {
  it('keeps a string of MAX_KEPT_CHARS whole and clips one char more to its head and length', () => {
    const kept = 'k'.repeat(MAX_KEPT_CHARS);
    expect(clipLongStrings(kept)).toBe(kept);
    expect(clipLongStrings('x'.repeat(MAX_KEPT_CHARS + 1))).toBe(`${'x'.repeat(64)}… [${MAX_KEPT_CHARS + 1} chars]`);
  });

  it('clips inside objects and arrays, keeps key order and everything else, and leaves the value it was given', () => {
    const message = 'm'.repeat(5_000_000);
    const args = { recipient: 'a@example.com', message, parts: ['short', message], amount: 12, meta: null };
    const clipped = clipLongStrings(args);
    expect(JSON.stringify(clipped)).toBe(
      JSON.stringify({
        recipient: 'a@example.com',
        message: `${'m'.repeat(64)}… [5000000 chars]`,
        parts: ['short', `${'m'.repeat(64)}… [5000000 chars]`],
        amount: 12,
        meta: null,
      }),
    );
    expect(args.message).toBe(message);
    expect(args.parts[1]).toBe(message);
    // Clipped once is clipped: what history.jsonl keeps renders trace.jsonl as the run did.
    expect(clipLongStrings(clipped)).toEqual(clipped);
  });

  it('returns a value with nothing to clip as it is, not a copy', () => {
    const args = { customer_id: 'cus_1', nested: { list: [1, 'two'] } };
    expect(clipLongStrings(args)).toBe(args);
  });
});
