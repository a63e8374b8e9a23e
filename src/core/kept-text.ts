// What the files a run leaves keep of the text a record carried: an attempt's arguments with their secrets redacted
// (by value or by a secret's name) and a string of megabytes as its head and length (clip-long-strings.ts); its error
// message and the notifications it received redacted as the reference server redacts its errors (secrets, stack
// frames, SQL, absolute paths); model-visible text as its length only (it can be megabytes and may hold a leaked
// secret; the leak scan reads it while the run goes). history.jsonl and shard.json keep records so and trace.jsonl
// shows them so: no file carries a secret the run saw (a leaky server's canary included), and each renders again
// from what it kept byte for byte, as every rule gives the same text when applied again.
import { clipLongStrings } from './clip-long-strings.ts';
import type { AttemptRecord, History, OpRecord } from './history.ts';
import { redactSecrets, redactText } from './redact.ts';

/** A record's field as the files keep it. */
export function keptField(key: string, value: unknown): unknown {
  if (key === 'args') return redactSecrets(clipLongStrings(value));
  if (key === 'message' && typeof value === 'string') return redactText(value);
  if (key === 'notifications' && Array.isArray(value))
    return value.map((n) => (typeof n === 'string' ? redactText(n) : n));
  return value;
}

/** The record in its keys' order, every field kept (keptField), its visible text as its length, last. */
export function keptRecord<R extends { visible?: string }>(record: R): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in record) {
    if (key !== 'visible') out[key] = keptField(key, (record as Record<string, unknown>)[key]);
  }
  if (record.visible !== undefined) out.visibleChars = record.visible.length;
  return out;
}

/** A history whose records are whole in memory (history-records.ts wholeHistory), its attempts and ops kept. */
export function keptHistory(history: History): History {
  return {
    ...history,
    ...(history.attempts && { attempts: history.attempts.map((a) => keptRecord(a) as unknown as AttemptRecord) }),
    ...(history.ops && { ops: history.ops.map((o) => keptRecord(o) as unknown as OpRecord) }),
  };
}
