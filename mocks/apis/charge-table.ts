// The payments API's charges, kept compact: a charge is kept for the whole run (replays and status lookups answer
// from it), so an object of eight fields and three strings of its own per charge (about 320 B in heap snapshots of
// the server child) grew the child by tens of MB at 100,000 ops. Here a charge is its idempotency key (the table's
// key, needed anyway), its customer's string and a slot in typed columns: id number, amount, currency by index,
// creation time. Its args_key is derived again (a hash of customer, amount and currency, as it was made) and the
// object rebuilt on each read, with its fields in the order the API built them, so every answer is the same JSON.
// A value that would not come back the same (another shape, restored from elsewhere) is kept as it is.
import type { Charge } from '../../src/core/dependency-contract.ts';
import { argsKey } from '../ledger.ts';
import type { Table } from '../state.ts';

const ID_PREFIX = 'ch_';
const STATUS = 'succeeded';

export class ChargeTable implements Table {
  /** A slot number for a compact charge, else the value itself; in insertion order, as a Map of values would be. */
  private readonly byKey = new Map<string, number | unknown>();
  private readonly customers: string[] = [];
  private readonly currencies: string[] = [];
  private readonly currencyIndex = new Map<string, number>();
  private idNumbers = new Uint32Array(1024);
  private amounts = new Float64Array(1024);
  private currencyOf = new Uint16Array(1024);
  private created = new Float64Array(1024);
  /** 1: the charge carries its idempotency key (the table's key); 0: it has none. */
  private keyed = new Uint8Array(1024);
  private slots = 0;

  get size(): number {
    return this.byKey.size;
  }

  /** How many charges went to slots (the rest were kept whole). */
  get compact(): number {
    return this.slots;
  }

  get(key: string): unknown {
    const held = this.byKey.get(key);
    return typeof held === 'number' ? this.charge(key, held) : held;
  }

  set(key: string, value: unknown): this {
    const slot = this.encode(key, value);
    this.byKey.set(key, slot ?? value);
    return this;
  }

  *entries(): IterableIterator<[string, unknown]> {
    for (const [key, held] of this.byKey) yield [key, typeof held === 'number' ? this.charge(key, held) : held];
  }

  *values(): IterableIterator<unknown> {
    for (const [, value] of this.entries()) yield value;
  }

  clear(): void {
    this.byKey.clear();
    this.customers.length = 0;
    this.slots = 0;
  }

  /** The charge in `slot`, as the API built it. */
  private charge(key: string, slot: number): Charge {
    const customer_id = this.customers[slot];
    const amount_cents = this.amounts[slot];
    const currency = this.currencies[this.currencyOf[slot]];
    return {
      id: `${ID_PREFIX}${String(this.idNumbers[slot]).padStart(6, '0')}`,
      customer_id,
      amount_cents,
      currency,
      status: STATUS,
      ...(this.keyed[slot] === 1 && { idempotency_key: key }),
      args_key: argsKey({ customer_id, amount_cents, currency }),
      created_ms: this.created[slot],
    };
  }

  /** Writes `value` to a new slot when it comes back from there as the same JSON; else undefined (kept whole). */
  private encode(key: string, value: unknown): number | undefined {
    const c = value as Partial<Charge> | null;
    if (typeof c !== 'object' || c === null) return undefined;
    const { id, customer_id, amount_cents, currency, created_ms } = c;
    if (typeof id !== 'string' || !id.startsWith(ID_PREFIX)) return undefined;
    const idNumber = Number(id.slice(ID_PREFIX.length));
    if (!Number.isInteger(idNumber) || idNumber < 0 || idNumber > 0xffffffff) return undefined;
    if (typeof customer_id !== 'string' || typeof currency !== 'string') return undefined;
    if (typeof amount_cents !== 'number' || typeof created_ms !== 'number') return undefined;
    const currencyIndex = this.currencyIndex.get(currency) ?? this.currencies.length;
    if (currencyIndex > 0xffff) return undefined;
    const slot = this.slots;
    this.reserve(slot + 1);
    this.idNumbers[slot] = idNumber;
    this.customers[slot] = customer_id;
    this.amounts[slot] = amount_cents;
    this.currencyOf[slot] = currencyIndex;
    this.created[slot] = created_ms;
    this.keyed[slot] = 'idempotency_key' in c ? 1 : 0;
    if (currencyIndex === this.currencies.length) {
      this.currencies.push(currency);
      this.currencyIndex.set(currency, currencyIndex);
    }
    // The proof it is the same charge: every field, its value and its place, as JSON (what any reader sees).
    if (JSON.stringify(this.charge(key, slot)) !== JSON.stringify(value)) {
      this.customers.length = slot;
      return undefined;
    }
    this.slots = slot + 1;
    return slot;
  }

  /** Room for `count` slots in every column (doubling, so a run's charges cost a copy of each column per doubling). */
  private reserve(count: number): void {
    if (count <= this.amounts.length) return;
    const grown = this.amounts.length * 2;
    const grow = <A extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(
      column: A,
      make: (n: number) => A,
    ) => {
      const next = make(grown);
      next.set(column);
      return next;
    };
    this.idNumbers = grow(this.idNumbers, (n) => new Uint32Array(n));
    this.amounts = grow(this.amounts, (n) => new Float64Array(n));
    this.currencyOf = grow(this.currencyOf, (n) => new Uint16Array(n));
    this.created = grow(this.created, (n) => new Float64Array(n));
    this.keyed = grow(this.keyed, (n) => new Uint8Array(n));
  }
}
