// history.jsonl: the recorded History of every profile, one JSON line per profile, next to report.json, so
// `faultline report RUN_DIR` can rebuild every report later. Model-visible text (op.visible) is left out, its
// length kept as visibleChars (as trace.jsonl has it): it can be megabytes and may hold a leaked canary; the leak
// scan already ran and its findings are in report.json.
import { z } from 'zod';
import type { History, OpRecord } from '../core/history.ts';
import { wholeAttempts, wholeOps } from '../core/history-records.ts';

export const HISTORY_FILE = 'history.jsonl';

export function renderHistories(histories: Record<string, History>): string {
  return [...historyChunks(histories)].join('');
}

/**
 * history.jsonl in pieces, the same bytes as one JSON.stringify per profile, written record by record: a long
 * run's line can be hundreds of megabytes (a run's records are read whole from its log one at a time).
 */
export function* historyChunks(histories: Record<string, History>): Generator<string> {
  for (const [profile, h] of Object.entries(histories)) {
    yield `{"profile":${JSON.stringify(profile)},"history":{`;
    let first = true;
    for (const [key, value] of Object.entries(h)) {
      if (value === undefined) continue;
      // The record log is not a field of its own: `attempts` and `ops` are written whole in its place, where a
      // history read into memory holds them (core/history-records.ts wholeHistory).
      const parts: [string, Iterable<string>][] =
        key === 'records'
          ? [
              ['attempts', jsonArray(wholeAttempts(h), (a) => a)],
              ['ops', jsonArray(wholeOps(h), withoutVisible)],
            ]
          : [[key, fieldJson(h, key, value)]];
      for (const [name, json] of parts) {
        yield `${first ? '' : ','}${JSON.stringify(name)}:`;
        first = false;
        yield* json;
      }
    }
    yield '}}\n';
  }
}

function fieldJson(h: History, key: string, value: unknown): Iterable<string> {
  if (key === 'attempts') return jsonArray(wholeAttempts(h), (a) => a);
  if (key === 'ops') return jsonArray(wholeOps(h), withoutVisible);
  if (key === 'decisions') return jsonArray(h.decisions, (d) => d);
  return [JSON.stringify(value)];
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

function withoutVisible({ visible, ...op }: OpRecord): Record<string, unknown> {
  return { ...op, ...(visible === undefined ? {} : { visibleChars: visible.length }) };
}

const timed = z.looseObject({ startMs: z.number(), endMs: z.number() });
const historySchema = z.looseObject({
  startMs: z.number(),
  endMs: z.number(),
  attempts: z.array(timed.extend({ opId: z.string(), attempt: z.number(), ok: z.boolean() })),
  ops: z.array(timed.extend({ opId: z.string(), tool: z.string(), outcome: z.enum(['ok', 'fail', 'info']) })),
  faults: z.array(z.looseObject({ id: z.string(), seam: z.string(), kind: z.string(), onMs: z.number() })),
  effects: z.array(z.looseObject({ seq: z.number(), atMs: z.number(), kind: z.string() })),
  decisions: z.array(z.looseObject({ stream: z.string(), what: z.string() })),
});
const lineSchema = z.strictObject({ profile: z.string(), history: historySchema });

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
    const parsed = lineSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HistoryFileError(`${file}:${i + 1}: ${issue.path.join('.') || '(line)'}: ${issue.message}`);
    }
    // The line as written (key order included); the schema only checked what the renderers rely on.
    histories[parsed.data.profile] = (raw as { history: History }).history;
  });
  return histories;
}

class HistoryFileError extends Error {
  readonly userFacing = true;
}
