// A call's arguments as the report files keep them: a string past MAX_KEPT_CHARS (only a payload test sends one;
// oversized-payloads' 5 MB message) is kept as its head and its length. Its bytes tell a reader nothing, and three
// such calls were 30 MB of the default suite's 38 MB of report files, written twice (history.jsonl, trace.jsonl).
// Every shorter string is kept whole, and a value with nothing to clip is returned as it is (no copy).
import { mapStrings } from './map-strings.ts';

/** The longest argument string kept whole. */
export const MAX_KEPT_CHARS = 4096;

/** How much of a clipped string is kept. */
const HEAD_CHARS = 64;

/** `value` with every string longer than MAX_KEPT_CHARS clipped to `<head>… [<length> chars]`. */
export function clipLongStrings<T>(value: T): T {
  return mapStrings(value, (text) =>
    text.length > MAX_KEPT_CHARS ? `${text.slice(0, HEAD_CHARS)}… [${text.length} chars]` : text,
  );
}
