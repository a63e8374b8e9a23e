// Retry-After in both forms (RFC 9110 §10.2.3): delta-seconds or an HTTP-date. Returns milliseconds, or
// undefined when the header is absent or unparseable.
export function parseRetryAfter(value: string | null | undefined, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.round(at - nowMs));
}
