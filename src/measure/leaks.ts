// Leak scan: planted secret canaries that reached content the model sees. Each canary kind has a unique marker
// (mocks/canaries.ts), searched in the decoded text of everything the model sees: every attempt's content,
// structured content, isError texts, JSON-RPC error messages and data, and the notifications it received. A
// marker survives partial leaks and multi-line secrets whose newlines were escaped into JSON.
import type { History } from '../core/history.ts';
import { allAttempts, allOps, recordIndex } from '../core/history-records.ts';
import type { LeakFinding } from './types.ts';

export interface LeakOptions {
  /** Canary kind -> marker. */
  canaries?: Readonly<Record<string, string>>;
}

/** One finding per (op, place, canary kind); the count of leaks is the number of findings. */
export function findLeaks(history: History, options: LeakOptions = {}): LeakFinding[] {
  const canaries = Object.entries(options.canaries ?? {}).filter(([, marker]) => marker.length > 0);
  if (canaries.length === 0) return [];
  const findings: LeakFinding[] = [];
  const seen = new Set<string>();
  const scan = (opId: string, where: LeakFinding['where'], text: string | undefined) => {
    if (!text) return;
    const decoded = decode(text);
    for (const [kind, marker] of canaries) {
      const key = `${opId}\u0000${where}\u0000${kind}`;
      if (seen.has(key) || !decoded.some((t) => t.includes(marker))) continue;
      seen.add(key);
      findings.push({ opId, where, kind, canary: mask(marker) });
    }
  };
  // An op's final answer is its last attempt's: scanned there when attempts carry what they showed.
  // Records read whole one at a time (a run's history keeps its text on disk, core/history-records.ts).
  const records = recordIndex(history);
  const shownByAttempt = new Set<string>();
  for (const a of allAttempts(records)) if (a.visible !== undefined) shownByAttempt.add(a.opId);
  for (const op of allOps(records)) if (!shownByAttempt.has(op.opId)) scan(op.opId, 'visible', op.visible);
  for (const a of allAttempts(records)) {
    scan(a.opId, 'attempt', a.visible ?? a.message);
    for (const n of a.notifications ?? []) scan(a.opId, 'notification', n);
  }
  return findings;
}

/** Findings per canary kind, every kind present (0 when not found) so a report shows what was looked for. */
export function leaksByKind(findings: readonly LeakFinding[], options: LeakOptions = {}): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(Object.keys(options.canaries ?? {}).map((k) => [k, 0]));
  for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return counts;
}

/**
 * The text as received plus its decoded forms: JSON string leaves (a result that is JSON text), and JSON or
 * unicode escapes undone, so `\u0066lcanary` or an escaped newline cannot hide a marker.
 */
function decode(text: string): string[] {
  const forms = [text];
  try {
    const leaves: string[] = [];
    collectStrings(JSON.parse(text), leaves);
    if (leaves.length > 0) forms.push(leaves.join('\n'));
  } catch {
    // not JSON: the raw text and its unescaped form are what there is
  }
  const unescaped = text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\[nrt]/g, ' ')
    .replace(/\\(["\\/])/g, '$1');
  if (unescaped !== text) forms.push(unescaped);
  return forms;
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectStrings(v, out);
}

/** Keeps enough of the canary to recognise it, not enough to paste it anywhere. */
export function mask(secret: string): string {
  if (secret.length <= 4) return '*'.repeat(secret.length);
  return `${secret.slice(0, 4)}${'*'.repeat(Math.min(8, secret.length - 4))}`;
}
