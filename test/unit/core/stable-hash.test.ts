// stableHash is the argsKey of every side-effecting op on both sides and goes into decision logs and shard
// outputs: its value must not change with how it is computed (crypto.hash or a createHash object).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stableHash, stableStringify } from '../../../src/core/stable-hash.ts';

describe('stableHash', () => {
  it('is the first 8 bytes of SHA-256 over the canonical JSON, in hex, whatever the key order', () => {
    expect(stableHash({ b: 'x', a: 1 })).toBe('ecf9e98ec0641e23');
    expect(stableHash({ a: 1, b: 'x' })).toBe('ecf9e98ec0641e23');
    for (const value of [{ amount_cents: 1200, nested: { z: [1, 2], y: null } }, 'text', 7, [{ k: undefined }]]) {
      const reference = createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, 16);
      expect(stableHash(value)).toBe(reference);
    }
  });

  it('tells different arguments apart', () => {
    expect(stableHash({ a: 1 })).not.toBe(stableHash({ a: 2 }));
  });
});
