// An answer lost with the stream that carried it. When a request's SSE answer fails while SDK 1.32 or 2.4 reads it,
// before the answer, they report "SSE stream disconnected" to the client's onerror (whose stream it was is known
// from the error itself: watched-stream.ts) and resume the stream only if it carried an event id (a priming event).
// Without one there is nothing to resume from, yet the call stays pending until its timeout. That is known when
// the stream breaks, not guessed from time, so the attempt ends there: LINK.ANSWER_LOST, retryable, uncertain
// (the server may have acted). A stream with an event id is left to the SDK, which resumes it with Last-Event-ID.
// A stream the server closes cleanly without the answer raises no error: that call still waits for its timeout.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AttemptHttp } from './attempt-http.ts';
import type { AttemptRegistry } from './attempt-registry.ts';

/** The SDK's onerror text for a request stream that failed while it was read (SDK 1.32 and 2.4 alike). */
const STREAM_BROKE = /^SSE stream disconnected/;

export const ANSWER_LOST_MESSAGE =
  'the stream carrying the answer broke off before the answer, with no event id to resume from';

const ends = new WeakMap<AttemptHttp, AbortController>();

/** The SDK request options that let an attempt end when its answer is lost (its signal, the event-id callback). */
export interface AnswerLostOptions {
  signal: AbortSignal;
  onresumptiontoken: (eventId: string) => void;
}

/**
 * `call` (one request of attempt `http`, registered in `attempts`) with the options that end it when its answer is
 * lost. Once the call settles, a stream error is no longer its answer's.
 */
export function withAnswerLost<T>(
  http: AttemptHttp,
  attempts: AttemptRegistry,
  call: (options: AnswerLostOptions) => Promise<T>,
): Promise<T> {
  const end = new AbortController();
  ends.set(http, end);
  const options = {
    signal: end.signal,
    onresumptiontoken: (eventId: string) => {
      http.resumable = true;
      // The SDK resumes from this id: its GET is this attempt's (recording-fetch.ts counts it).
      attempts.noteEventId(http, eventId);
    },
  };
  return call(options).finally(() => {
    if (ends.get(http) === end) ends.delete(http);
  });
}

/** A request made outside any attempt (a connect's initialize, the contract's calls), the connection's alone. */
export function withOwnAnswerLost<T>(
  attempts: AttemptRegistry,
  call: (options: AnswerLostOptions) => Promise<T>,
): Promise<T> {
  const http: AttemptHttp = {};
  return attempts.outside(http, () => withAnswerLost(http, attempts, call));
}

/** For the client's onerror: ends the attempt `http` (whose stream broke) when there is nothing to resume from. */
export function endIfAnswerLost(error: Error, http: AttemptHttp | undefined): void {
  if (!http || http.resumable || !STREAM_BROKE.test(error.message)) return;
  const end = ends.get(http);
  if (!end) return;
  ends.delete(http);
  http.answerLost = true;
  // SDK 1.32 rejects the call with this error as it is; SDK 2.4 with its own timeout error of the same text.
  end.abort(new McpError(ErrorCode.ConnectionClosed, ANSWER_LOST_MESSAGE));
}
