// A scripted stand-in for the model's self-correction: it repairs a call using only what the server said
// (fieldErrors with path and expected, or the tool list after an unknown tool). It never invents values: a
// field it cannot repair stays as it was, so the next call would repeat itself (the loop guard's business).
import type { FieldError } from '../core/taxonomy.ts';

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The listed tool closest to a name the server did not know, if one is close enough. */
export function correctTool(name: string, available: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const tool of available) {
    const d = distance(norm(name), norm(tool));
    if (d < bestDistance) [best, bestDistance] = [tool, d];
  }
  return best;
}

function bound(expected: string): { op: string; n: number } | undefined {
  const m = /^(?:length )?(>=|<=|>|<) (-?\d+(?:\.\d+)?)$/.exec(expected.trim());
  return m ? { op: m[1], n: Number(m[2]) } : undefined;
}

function repairValue(value: unknown, expected: string | undefined): unknown {
  if (expected === undefined) return value;
  if (expected === 'number' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (expected === 'string' && Array.isArray(value) && typeof value[0] === 'string') return value[0];
  if (expected === 'string' && typeof value === 'number') return String(value);
  const b = bound(expected);
  if (b && typeof value === 'number') {
    if (b.op === '>=') return Math.max(value, b.n);
    if (b.op === '>') return Math.max(value, Math.floor(b.n) + 1);
    if (b.op === '<=') return Math.min(value, b.n);
    if (b.op === '<') return Math.min(value, Math.ceil(b.n) - 1);
  }
  if (typeof value === 'string') {
    // An enum: the listed value that matches but for case.
    const options = [...expected.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    const match = options.find((o) => o.toLowerCase() === value.toLowerCase());
    if (match) return match;
    const pattern = /^match (.+)$/.exec(expected)?.[1];
    if (pattern) {
      const re = new RegExp(pattern.replace(/^\/(.*)\/[a-z]*$/, '$1'));
      for (const candidate of [value.toUpperCase(), value.toLowerCase(), value.trim()])
        if (re.test(candidate)) return candidate;
    }
  }
  return value;
}

/** Arguments repaired from fieldErrors: renamed unknown fields, coerced types, clamped ranges, fixed case. */
export function correctArgs(
  args: Record<string, unknown>,
  fieldErrors: readonly FieldError[],
): Record<string, unknown> {
  const out = { ...args };
  const unknown = fieldErrors.filter((f) => f.expected === 'no such field').map((f) => f.path);
  const missing = fieldErrors.filter((f) => !(f.path in args) && f.expected !== 'no such field').map((f) => f.path);
  for (const path of unknown) {
    // A flattened or renamed field: the missing one with the same letters.
    const target = missing.find((m) => norm(m) === norm(path));
    if (path in out) {
      // Renamed when a required field has the same letters; otherwise the model drops what the tool lacks.
      if (target) out[target] = out[path];
      delete out[path];
    }
  }
  for (const f of fieldErrors) {
    if (f.path in out && f.expected !== 'no such field') out[f.path] = repairValue(out[f.path], f.expected);
  }
  return out;
}
