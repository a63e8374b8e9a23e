// Redaction of anything model-visible: tokens, passwords, stack traces, SQL and absolute paths are replaced by
// markers. Applied to every error the server returns (defence in depth: raw dependency bodies are not passed on
// in the first place). `leaky: true` servers skip it on purpose. A tool call's arguments (trace.jsonl) lose only
// their secrets: a path or a query in an argument is what the op did, and the trace is for reading that.

import { mapStrings } from './map-strings.ts';

/** Secrets: bearer tokens, JWTs, API keys, `password=...` and the like. */
const SECRET_RULES: Array<[RegExp, string]> = [
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]'],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9._-]+/g, '[token redacted]'],
  [/\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]+/g, '[key redacted]'],
  [
    /\b(password|passwd|pwd|secret|api[_-]?key|access[_-]?token|token|authorization)\b(\s*[=:]\s*)[^\s,;"'&]+/gi,
    '$1$2[redacted]',
  ],
];

const RULES: Array<[RegExp, string]> = [
  // Stack frames, e.g. "    at fn (/srv/app/x.js:1:2)" or "at node:internal/...".
  [/^[ \t]*at [^\n]*$/gm, '[stack frame redacted]'],
  ...SECRET_RULES,
  [/\b(SELECT|INSERT|UPDATE|DELETE|DROP|ALTER)\b[^\n]*?\b(FROM|INTO|SET|TABLE|WHERE)\b[^\n]*/gi, '[sql redacted]'],
  // Absolute paths (POSIX, Windows), not the path part of a URL.
  [/(^|[\s"'=(,:])(\/(?:[\w.@~-]+\/)+[\w.@~-]*)/g, '$1[path redacted]'],
  [/\b[A-Za-z]:\\(?:[^\\\s"']+\\)*[^\\\s"']*/g, '[path redacted]'],
];

/** An argument whose name says it holds a secret: its value is redacted whatever it looks like. */
const SECRET_NAME =
  /^(password|passwd|pwd|secret|client[_-]?secret|api[_-]?key|access[_-]?token|refresh[_-]?token|token|authorization|auth)$/i;

export function redactText(text: string): string {
  return applyRules(text, RULES);
}

function applyRules(text: string, rules: Array<[RegExp, string]>): string {
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A tool call's arguments with their secrets redacted (by value, or by a secret's name) and every other value kept.
 * A value with no secret in it is returned as it is, not copied: the report files pass every attempt's arguments.
 */
export function redactSecrets<T>(value: T): T {
  return mapStrings(
    value,
    (text) => applyRules(text, SECRET_RULES),
    (key, v) => (SECRET_NAME.test(key) && v != null ? '[redacted]' : undefined),
  );
}

/** Redacts every string (keys included) in a JSON-like value. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map(redactDeep) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k), redactDeep(v)])) as T;
  }
  return value;
}
