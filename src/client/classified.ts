// One attempt's classification, what the policies decide on (client/classify.ts makes it).
import type { AttemptRecord } from '../core/history.ts';
import type { AttemptCategory } from '../core/taxonomy.ts';

export interface Classified {
  ok: boolean;
  category?: AttemptCategory;
  errorCode?: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The attempt may have taken effect although the client saw a failure. */
  uncertain: boolean;
  /** The session is gone (404): a new session must be initialized before retrying. */
  sessionLost: boolean;
  /** The connection or stream is unusable: reconnect before retrying. */
  transportLost: boolean;
  /** The server refused this session's protocol version: the next op should negotiate on a new session. */
  renegotiate?: boolean;
  message?: string;
  /** The socket error code of a failed link (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, ...). */
  cause?: string;
}

/** A failed attempt; the session and the transport are kept unless it says otherwise. */
export const failure = (
  f: Omit<Classified, 'ok' | 'sessionLost' | 'transportLost'> & Partial<Classified>,
): Classified => ({
  ok: false,
  sessionLost: false,
  transportLost: false,
  ...f,
});

/** What an attempt's record keeps of its classification: nothing for an ok attempt, the failure's fields otherwise. */
export function failureFields(c: Classified): Partial<AttemptRecord> {
  if (c.ok) return {};
  return {
    category: c.category,
    errorCode: c.errorCode,
    retryable: c.retryable,
    retryAfterMs: c.retryAfterMs,
    uncertain: c.uncertain,
    message: c.message?.slice(0, 300),
    ...(c.cause && { cause: c.cause }),
  };
}
