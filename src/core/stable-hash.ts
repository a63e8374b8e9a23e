// Stable hashing of argument objects: the same values in any key order give the same key. Used by the server's
// idempotency store (same key, different arguments = conflict) and by the ledger's argsKey.
import * as crypto from 'node:crypto';

/**
 * SHA-256 of a string as a Buffer. crypto.hash (Node >= 20.12) is a one-shot that costs under half of a
 * createHash object per call; every side-effecting op hashes its arguments on both sides (client and server).
 */
const sha256: (data: string) => Buffer =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'buffer') as unknown as Buffer
    : (data) => crypto.createHash('sha256').update(data).digest();

export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * 16 hex chars of SHA-256 over the canonical JSON. Written from the digest's first 8 bytes, not sliced from its
 * 64 hex chars: V8 keeps a slice of 13 chars or more as a view of the whole string, and a long run holds one key
 * for every side-effecting op.
 */
export function stableHash(value: unknown): string {
  return sha256(stableStringify(value)).toString('hex', 0, 8);
}
