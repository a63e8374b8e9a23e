// Turns whatever one attempt produced (a result, an SDK error, a transport error) into one classification the
// policies decide on. Decisions use class, HTTP status, errorCode and retryable: never message text alone,
// except where the SDK offers nothing else (its version check, documented in the table).
//
// The table of what the client saw and what it means is classify-rules/index.ts; each row is a rule there.

import { toolErrorOf } from '../core/taxonomy.ts';
import type { AttemptHttp } from './attempt-http.ts';
import { type Classified, failure } from './classified.ts';
import { CLASSIFY_RULES } from './classify-rules/index.ts';
import { seenOf } from './classify-rules/rule.ts';

export function classifyResult(result: {
  isError?: boolean;
  structuredContent?: unknown;
  content?: unknown;
}): Classified {
  if (!result.isError)
    return { ok: true, retryable: false, uncertain: false, sessionLost: false, transportLost: false };
  const error = toolErrorOf(result);
  if (!error) {
    // A server we did not write says what went wrong in its own words: keep them (trace.jsonl, the report).
    const text = textContentOf(result.content);
    return failure({
      category: 'INTERNAL',
      errorCode: 'INTERNAL.UNSTRUCTURED',
      retryable: false,
      uncertain: true,
      ...(text && { message: text }),
    });
  }
  return failure({
    category: error.category,
    errorCode: error.errorCode,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    uncertain: error.details?.uncertain === true,
    message: error.message,
  });
}

/** The text parts of a tool result's content, joined (empty when it has none). */
function textContentOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((c): c is { type: 'text'; text: string } => c?.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text)
    .join('\n');
}

export function classifyError(error: unknown, http: AttemptHttp = {}): Classified {
  const seen = seenOf(error, http);
  // The last row matches anything, so a rule is always found.
  return CLASSIFY_RULES.find((rule) => rule.matches(seen))!.classify(seen);
}
