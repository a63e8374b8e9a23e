// A JSON-like value with every string in it changed, copied only where something changed: a value with nothing to
// change comes back as it is (the report files pass every attempt's arguments through two of these).

/**
 * `value` with `change` applied to each string in it, and each value under an object key replaced by what `byKey`
 * gives for it (undefined: left to `change`).
 */
export function mapStrings<T>(
  value: T,
  change: (text: string) => string,
  byKey?: (key: string, value: unknown) => unknown,
): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return change(v);
    if (Array.isArray(v)) {
      const mapped = v.map(walk);
      return mapped.some((m, i) => m !== v[i]) ? mapped : v;
    }
    if (v && typeof v === 'object') {
      const record = v as Record<string, unknown>;
      let copy: Record<string, unknown> | undefined;
      for (const key in record) {
        const inner = record[key];
        const mapped = byKey?.(key, inner) ?? walk(inner);
        if (mapped !== inner) copy ??= { ...record };
        if (copy) copy[key] = mapped;
      }
      return copy ?? v;
    }
    return v;
  };
  return walk(value) as T;
}
