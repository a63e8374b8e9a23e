// What the report files keep of the text a record carried: an attempt's arguments with their secrets redacted (by
// value or by a secret's name) and a string of megabytes as its head and length (core/clip-long-strings.ts); its
// error message and the notifications it received redacted as the reference server redacts its errors (secrets,
// stack frames, SQL, absolute paths). history.jsonl keeps them so and trace.jsonl shows them so: no report file
// carries a secret the run saw (a leaky server's canary included), and trace.jsonl renders again from history.jsonl
// byte for byte, as every rule gives the same text when applied again.
import { clipLongStrings } from '../core/clip-long-strings.ts';
import { redactSecrets, redactText } from '../core/redact.ts';

/** A record's field as the report files keep it. */
export function keptField(key: string, value: unknown): unknown {
  if (key === 'args') return redactSecrets(clipLongStrings(value));
  if (key === 'message' && typeof value === 'string') return redactText(value);
  if (key === 'notifications' && Array.isArray(value))
    return value.map((n) => (typeof n === 'string' ? redactText(n) : n));
  return value;
}
