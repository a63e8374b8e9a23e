// history.jsonl: the recorded History of every profile, one JSON line per profile, next to report.json, so
// `faultline report RUN_DIR` can rebuild every report later. Format 2 (`"format":2` on the line) is compact where
// the bytes grow with the run (attempts, ops, decisions): model-visible text is left out, its length kept as
// visibleChars (as trace.jsonl has it; it can be megabytes and may hold a leaked canary, and the leak scan already
// ran and wrote its findings to report.json); arguments, error messages and notifications are kept as trace.jsonl
// shows them, secrets redacted and an argument string of megabytes as its head and length (core/kept-text.ts); a start
// is written relative to the history's start, an end relative to its record's start, each to the fewest decimals
// that give the clock's reading back exactly (core/relative-time.ts), so every report renders again byte for byte;
// decisions as the decision log writes them (`[stream, what, value]`, `1` after a keyed draw). A line without
// `format` (written before) is read as it is: epoch times, visibleChars on ops only, decisions as objects.
import { z } from 'zod';
import { decodedDecision, type EncodedDecision, encodedDecision } from '../core/decision-log.ts';
import type { History } from '../core/history.ts';
import { wholeAttempts, wholeOps } from '../core/history-records.ts';
import { keptRecord } from '../core/kept-text.ts';
import { absolute, relative } from '../core/relative-time.ts';

export const HISTORY_FILE = 'history.jsonl';
const FORMAT = 2;

export function renderHistories(histories: Record<string, History>): string {
  return [...historyChunks(histories)].join('');
}

/**
 * history.jsonl in pieces, the same bytes as one JSON.stringify per profile, written record by record: a long
 * run's line can be hundreds of megabytes (a run's records are read whole from its log one at a time).
 */
export function* historyChunks(histories: Record<string, History>): Generator<string> {
  for (const [profile, h] of Object.entries(histories)) {
    yield `{"profile":${JSON.stringify(profile)},"format":${FORMAT},"history":{`;
    const compact = (record: Timed) => compactRecord(record, h.startMs);
    const arrays: Record<string, () => Iterable<string>> = {
      attempts: () => jsonArray(wholeAttempts(h), compact),
      ops: () => jsonArray(wholeOps(h), compact),
      decisions: () => jsonArray(h.decisions, encodedDecision),
      effects: () => jsonArray(h.effects, (effect) => effect),
    };
    let first = true;
    for (const [key, value] of Object.entries(h)) {
      if (value === undefined) continue;
      // The record log is not a field of its own: `attempts` and `ops` are written whole in its place, where a
      // history read into memory holds them (core/history-records.ts wholeHistory).
      for (const name of key === 'records' ? ['attempts', 'ops'] : [key]) {
        yield `${first ? '' : ','}${JSON.stringify(name)}:`;
        first = false;
        yield* arrays[name]?.() ?? [JSON.stringify(value)];
      }
    }
    yield '}}\n';
  }
}

function* jsonArray<T>(items: Iterable<T>, shown: (item: T) => unknown): Generator<string> {
  yield '[';
  let first = true;
  for (const item of items) {
    yield `${first ? '' : ','}${JSON.stringify(shown(item))}`;
    first = false;
  }
  yield ']';
}

interface Timed {
  startMs: number;
  endMs: number;
  visible?: string;
}

/**
 * The record in its keys' order, times relative, visible text as its length (last, as trace.jsonl puts it), its
 * arguments, message and notifications as trace.jsonl shows them (core/kept-text.ts: secrets redacted, long strings
 * clipped).
 */
function compactRecord(record: Timed, baseMs: number): Record<string, unknown> {
  const out = keptRecord(record);
  out.startMs = relative(record.startMs, baseMs);
  out.endMs = relative(record.endMs, record.startMs);
  return out;
}

/** Its times back as epoch ms, in place (the keys keep their order). */
function expandRecord(record: Record<string, unknown>, baseMs: number): void {
  record.startMs = absolute(record.startMs, baseMs);
  record.endMs = absolute(record.endMs, record.startMs as number);
}

function historySchema(time: z.ZodType<unknown>, decision: z.ZodType<unknown>) {
  const timed = z.looseObject({ startMs: time, endMs: time });
  return z.looseObject({
    startMs: z.number(),
    endMs: z.number(),
    attempts: z.array(timed.extend({ opId: z.string(), attempt: z.number(), ok: z.boolean() })),
    ops: z.array(timed.extend({ opId: z.string(), tool: z.string(), outcome: z.enum(['ok', 'fail', 'info']) })),
    faults: z.array(z.looseObject({ id: z.string(), seam: z.string(), kind: z.string(), onMs: z.number() })),
    effects: z.array(z.looseObject({ seq: z.number(), atMs: z.number(), kind: z.string() })),
    decisions: z.array(decision),
  });
}
/** Before format 2: epoch times. */
const lineV1 = z.strictObject({
  profile: z.string(),
  history: historySchema(z.number(), z.looseObject({ stream: z.string(), what: z.string() })),
});
const value = z.union([z.number(), z.string(), z.boolean()]);
const lineV2 = z.strictObject({
  profile: z.string(),
  format: z.literal(FORMAT),
  history: historySchema(
    z.union([z.number(), z.tuple([z.number()])]),
    z.union([z.tuple([z.string(), z.string(), value]), z.tuple([z.string(), z.string(), value, z.literal(1)])]),
  ),
});

/** Throws `<file>:<line>: <path>: <problem>` on the first bad line. */
export function parseHistories(text: string, file: string): Record<string, History> {
  const histories: Record<string, History> = {};
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new HistoryFileError(`${file}:${i + 1}: not a JSON line`);
    }
    const compact = typeof raw === 'object' && raw !== null && 'format' in raw;
    const parsed = (compact ? lineV2 : lineV1).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HistoryFileError(
        `${file}:${i + 1}: ${issue.path.join('.') || '(line)'}: ${issue.message} (expected a history.jsonl line of faultline run, format ${FORMAT} or none)`,
      );
    }
    // The line as written (key order included); the schema only checked what the renderers rely on.
    const history = (raw as { history: History }).history;
    if (compact) {
      for (const record of [...history.attempts!, ...history.ops!]) {
        expandRecord(record as unknown as Record<string, unknown>, history.startMs);
      }
      history.decisions = (history.decisions as unknown as EncodedDecision[]).map(decodedDecision);
    }
    histories[parsed.data.profile] = history;
  });
  return histories;
}

class HistoryFileError extends Error {
  readonly userFacing = true;
}
