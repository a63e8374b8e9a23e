// Redaction of anything model-visible: tokens, passwords, stack traces, SQL and absolute paths are replaced by
// markers. Applied to every error the server returns (defence in depth: raw dependency bodies are not passed on
// in the first place). `leaky: true` servers skip it on purpose.

const RULES: Array<[RegExp, string]> = [
  // Stack frames, e.g. "    at fn (/srv/app/x.js:1:2)" or "at node:internal/...".
  [/^[ \t]*at [^\n]*$/gm, '[stack frame redacted]'],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]'],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9._-]+/g, '[token redacted]'],
  [/\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]+/g, '[key redacted]'],
  [
    /\b(password|passwd|pwd|secret|api[_-]?key|access[_-]?token|token|authorization)\b(\s*[=:]\s*)[^\s,;"'&]+/gi,
    '$1$2[redacted]',
  ],
  [/\b(SELECT|INSERT|UPDATE|DELETE|DROP|ALTER)\b[^\n]*?\b(FROM|INTO|SET|TABLE|WHERE)\b[^\n]*/gi, '[sql redacted]'],
  // Absolute paths (POSIX, Windows), not the path part of a URL.
  [/(^|[\s"'=(,:])(\/(?:[\w.@~-]+\/)+[\w.@~-]*)/g, '$1[path redacted]'],
  [/\b[A-Za-z]:\\(?:[^\\\s"']+\\)*[^\\\s"']*/g, '[path redacted]'],
];

export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
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
