// Retry-After (RFC 9110 §10.2.3): `delay-seconds` (a non-negative integer) or an HTTP-date. The one parser, used by
// the client (the MCP endpoint's 429/503) and the reference server (its dependencies' 429).
//
// Fractional seconds ("1.5") are not valid delay-seconds, but their intent is plain and some servers send them (so
// does the edge `status` fault, whose retryAfterS may be fractional). Dropping the advice would let a client retry
// sooner than asked, so a non-negative decimal is honoured, rounded UP to whole milliseconds. Signs, exponents and
// other junk are unparseable.

const DELAY_SECONDS = /^\d+$/;
const DECIMAL_SECONDS = /^\d+\.\d+$/;
/** The three date forms a recipient must accept (RFC 9110 §5.6.7); Date.parse reads all three. */
const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
/** asctime carries no zone; HTTP dates are always UTC, so it is read as GMT (Date.parse would use local time). */
const ASCTIME_DATE = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** The advised delay in milliseconds from `nowMs`, or undefined when the header is absent or unparseable. */
export function parseRetryAfter(value: string | null | undefined, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Number(text) * 1000;
  if (DECIMAL_SECONDS.test(text)) return Math.ceil(Number(text) * 1000);
  let at: number;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) at = Date.parse(text);
  else if (ASCTIME_DATE.test(text)) at = Date.parse(`${text} GMT`);
  else return undefined;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.round(at - nowMs));
}
