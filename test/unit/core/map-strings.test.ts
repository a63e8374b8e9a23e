import { describe, expect, it } from 'vitest';
import { mapStrings } from '../../../src/core/map-strings.ts';
import { redactSecrets } from '../../../src/core/redact.ts';

describe('mapStrings', () => {
  it('changes every string, in objects and arrays, keeping key order, and copies only what changed', () => {
    const value = { a: 'x', list: ['y', 1, { b: 'z' }], n: 2, none: null, kept: { c: 3 } };
    const upper = mapStrings(value, (s) => s.toUpperCase());
    expect(JSON.stringify(upper)).toBe('{"a":"X","list":["Y",1,{"b":"Z"}],"n":2,"none":null,"kept":{"c":3}}');
    expect(value.a).toBe('x'); // the value given is left as it was
    expect(upper.kept).toBe(value.kept); // nothing to change: the same object
    expect(mapStrings(value, (s) => s)).toBe(value);
  });

  it('replaces a whole value by the key it is under', () => {
    const value = { token: { nested: 'abc' }, other: 'abc', empty: null };
    expect(
      mapStrings(
        value,
        (s) => s,
        (key) => (key === 'token' ? '[gone]' : undefined),
      ),
    ).toEqual({
      token: '[gone]',
      other: 'abc',
      empty: null,
    });
  });
});

describe('redactSecrets', () => {
  it('redacts by value and by a secret’s name, and returns arguments with no secret as they are', () => {
    const args = { customer_id: 'cus_1', amount_cents: 900, tags: ['a', 'b'] };
    expect(redactSecrets(args)).toBe(args);
    expect(redactSecrets({ password: 'hunter2', note: 'Bearer abc.def', key: 'sk_live_42', ok: 'fine' })).toEqual({
      password: '[redacted]',
      note: 'Bearer [redacted]',
      key: '[key redacted]',
      ok: 'fine',
    });
    // Applied again, the same: what history.jsonl keeps renders trace.jsonl as the run did.
    const once = redactSecrets({ auth: 'x', text: 'token=abc password: p' });
    expect(redactSecrets(once)).toEqual(once);
  });
});
