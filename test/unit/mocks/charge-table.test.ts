// The payments API's compact table of charges answers as a Map of the same records would: the same JSON for every
// read, in the same order, with the same size; only what would not come back the same is kept whole.
import { describe, expect, it } from 'vitest';
import { ChargeTable } from '../../../mocks/apis/charge-table.ts';
import { argsKey } from '../../../mocks/ledger.ts';

function charge(n: number, key?: string, currency = ['USD', 'EUR', 'GBP'][n % 3]) {
  const args = { customer_id: `cus_${n}`, amount_cents: 100 + n, currency };
  return {
    id: `ch_${String(n).padStart(6, '0')}`,
    ...args,
    status: 'succeeded',
    ...(key && { idempotency_key: key }),
    args_key: argsKey(args),
    created_ms: 1_700_000_000_000 + n + 0.25,
  };
}

/** Every read of both tables, as JSON. */
function reads(table: ChargeTable | Map<string, unknown>, keys: string[]) {
  return JSON.stringify({
    size: table.size,
    got: keys.map((k) => table.get(k) ?? null),
    entries: [...table.entries()],
    values: [...table.values()],
  });
}

describe('ChargeTable', () => {
  it('gives back what a Map gives, for 3,000 charges (columns grown twice) and odd values among them', () => {
    const table = new ChargeTable();
    const map = new Map<string, unknown>();
    const keys: string[] = [];
    const put = (key: string, value: unknown) => {
      table.set(key, value);
      map.set(key, value);
      keys.push(key);
    };
    for (let n = 1; n <= 3000; n++) put(n % 7 === 0 ? `ch_${String(n).padStart(6, '0')}` : `pay-${n}`, charge(n));
    for (const n of [1, 2, 3]) put(`pay-${n}`, charge(n, `pay-${n}`));
    // Not a charge as the API builds it: kept whole, in its place.
    put('odd-1', { id: 'ch_000009', customer_id: 'cus_9', extra: true });
    put('odd-2', { ...charge(5, 'someone-else') });
    put('odd-3', { ...charge(6), args_key: 'not-its-hash' });
    put('odd-4', 'a string');
    put('odd-5', { ...charge(7), id: 'ch_7' });
    put('later', charge(3001, 'later', 'JPY'));
    expect(reads(table, [...keys, 'missing'])).toBe(reads(map, [...keys, 'missing']));
    expect(table.compact).toBe(3004);
    table.clear();
    expect(reads(table, keys)).toBe(reads(new Map(), keys));
    table.set('k', charge(1, 'k'));
    expect(table.get('k')).toEqual(charge(1, 'k'));
  });
});
