// Leak scan: planted secret canaries that reached content the model sees. Each canary kind has a unique marker
// (mocks/canaries.ts), searched in the decoded text of everything the model sees: every attempt's content,
// structured content, isError texts, JSON-RPC error messages and data, and the notifications it received. A
// marker survives partial leaks and multi-line secrets whose newlines were escaped into JSON. A run scans as its
// ops end (an accumulator the Recorder feeds, measure/feed.ts), so judging reads no record again for it.
import type { AttemptRecord, History, OpRecord } from '../core/history.ts';
import { opGroups } from '../core/history-records.ts';
import type { Accumulator } from './accumulator.ts';
import type { LeakFinding } from './leak-finding.ts';

export interface LeakOptions {
  /** Canary kind -> marker. */
  canaries?: Readonly<Record<string, string>>;
}

/**
 * Findings as a report lists them: final answers first, then by op id; an op's own in the order they were found (a
 * stable sort), so findings gathered op by op in any order, or shard by shard, list alike.
 */
export function inReportOrder(findings: readonly LeakFinding[]): LeakFinding[] {
  const rank = (f: LeakFinding) => (f.where === 'visible' ? 0 : 1);
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...findings].sort((a, b) => rank(a) - rank(b) || byId(a.opId, b.opId));
}

/** One finding per (op, place, canary kind); the count of leaks is the number of findings. */
export function findLeaks(history: History, options: LeakOptions = {}): LeakFinding[] {
  const scanner = new LeakScanner(options.canaries);
  for (const { attempts, op } of opGroups(history)) {
    for (const a of attempts) scanner.attempt(a);
    if (op) scanner.op(op);
  }
  return scanner.result();
}

/** The scan as ops end: fed each op's attempts, then the op. It keeps its findings and, per op still open, one id. */
export class LeakScanner implements Accumulator<LeakFinding[]> {
  private readonly markers: [string, string][];
  /** Texts with no backslash need no decoding (their JSON leaves are verbatim slices), unless a marker spans lines. */
  private readonly rawSuffices: boolean;
  private readonly findings: LeakFinding[] = [];
  private readonly seen = new Set<string>();
  /** Ops whose attempts carried what they showed: their final answer is their last attempt's, scanned there. */
  private readonly shownByAttempt = new Set<string>();

  constructor(readonly canaries: Readonly<Record<string, string>> = {}) {
    this.markers = Object.entries(canaries).filter(([, marker]) => marker.length > 0);
    this.rawSuffices = this.markers.every(([, marker]) => !marker.includes('\n'));
  }

  /** Whether this scan looked for exactly these canaries. */
  scansFor(canaries: Readonly<Record<string, string>> = {}): boolean {
    const theirs = Object.entries(canaries);
    return theirs.length === Object.keys(this.canaries).length && theirs.every(([k, v]) => this.canaries[k] === v);
  }

  attempt(a: AttemptRecord): void {
    if (this.markers.length === 0) return;
    if (a.visible !== undefined) this.shownByAttempt.add(a.opId);
    this.scan(a.opId, 'attempt', a.visible ?? a.message);
    for (const n of a.notifications ?? []) this.scan(a.opId, 'notification', n);
  }

  op(o: OpRecord): void {
    if (this.markers.length === 0) return;
    if (!this.shownByAttempt.delete(o.opId)) this.scan(o.opId, 'visible', o.visible);
  }

  /**
   * The findings, final answers first, then by op id: the same whatever order the ops ended or were stored in. An
   * op's own findings keep the order they were found in (its attempts in order, the canaries in the order given).
   */
  result(): LeakFinding[] {
    return inReportOrder(this.findings);
  }

  private scan(opId: string, where: LeakFinding['where'], text: string | undefined): void {
    if (!text) return;
    const forms = this.rawSuffices && !text.includes('\\') ? [text] : decode(text);
    for (const [kind, marker] of this.markers) {
      const key = `${opId}\u0000${where}\u0000${kind}`;
      if (this.seen.has(key) || !forms.some((t) => t.includes(marker))) continue;
      this.seen.add(key);
      this.findings.push({ opId, where, kind, canary: mask(marker) });
    }
  }
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
