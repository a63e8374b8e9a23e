// The dependencies' own state (charges, messages, reports) as key-value records per API. It lives "outside" the
// server: the child pushes every upsert to the harness, and a restarted child gets all records back.

export interface StateRecord {
  api: string;
  key: string;
  value: unknown;
}

/** How a table keeps its records: a Map, or a compact store with the same reads (apis/charge-table.ts). */
export interface Table {
  readonly size: number;
  get(key: string): unknown;
  set(key: string, value: unknown): unknown;
  entries(): IterableIterator<[string, unknown]>;
  values(): IterableIterator<unknown>;
  clear(): void;
}

export class DependencyState {
  private readonly tables = new Map<string, Table>();
  private readonly listeners = new Set<(record: StateRecord) => void>();

  /** `compact`: a table's own store by table name; any other table is a Map. */
  constructor(private readonly compact: Readonly<Record<string, () => Table>> = {}) {}

  get<T>(api: string, key: string): T | undefined {
    return this.tables.get(api)?.get(key) as T | undefined;
  }

  /** How many records the table holds, without copying them (a create numbers its id by it). */
  size(api: string): number {
    return this.tables.get(api)?.size ?? 0;
  }

  values<T>(api: string): T[] {
    return [...(this.tables.get(api)?.values() ?? [])] as T[];
  }

  private table(api: string): Table {
    let table = this.tables.get(api);
    if (!table) {
      table = this.compact[api]?.() ?? new Map<string, unknown>();
      this.tables.set(api, table);
    }
    return table;
  }

  put(api: string, key: string, value: unknown): void {
    this.table(api).set(key, value);
    for (const listener of this.listeners) listener({ api, key, value });
  }

  onPut(listener: (record: StateRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  records(): StateRecord[] {
    const out: StateRecord[] = [];
    for (const [api, table] of this.tables) for (const [key, value] of table.entries()) out.push({ api, key, value });
    return out;
  }

  /** Loads records without notifying listeners (they came from the harness). */
  restore(records: StateRecord[]): void {
    this.tables.clear();
    for (const { api, key, value } of records) this.table(api).set(key, value);
  }

  reset(): void {
    this.tables.clear();
  }
}
