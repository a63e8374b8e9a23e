// What the HTTP layer saw during one attempt. The SDK turns a 429 into a plain StreamableHTTPError and drops the
// headers, so the client's fetch wrapper writes status and Retry-After here, in the attempt's async context.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TaskAttempt } from '../core/history.ts';
import { isInputRound } from '../core/input-round.ts';
import { parseRetryAfter } from '../core/retry-after.ts';
import { HEADER_TAMPERED_HEADER } from '../core/wire.ts';

export interface AttemptHttp {
  status?: number;
  retryAfterMs?: number;
  /** SSE resumptions of this attempt's stream: accepted GETs with Last-Event-ID (the SDK reconnects in this context). */
  resumptions?: number;
  /**
   * Progress and log notifications that arrived on this attempt's own streams, as model-visible text. Progress
   * comes through the call's own handler; a log message finds its attempt here because the SDK reads a request's
   * SSE stream in the context that sent it (Streamable HTTP; over stdio one reader serves every request, so a log
   * message there belongs to no attempt).
   */
  notifications?: string[];
  /** Retried input_required rounds the SDK sent inside the attempt (requests carrying the client's answers). */
  inputRounds?: number;
  /** The task the attempt created (task-client.ts): its last status seen and the failed polls it resumed. */
  task?: TaskAttempt;
  /** A stream of this attempt carried an event id: the SDK can resume it (answer-lost.ts). */
  resumable?: boolean;
  /** The attempt's answer stream broke off before the answer with nothing to resume from (answer-lost.ts). */
  answerLost?: boolean;
  /** A proxy rewrote the Mcp-* routing headers of the attempt's last POST (it marks its answer: HEADER_TAMPERED_HEADER). */
  headerTampered?: boolean;
}

/** Notifications kept per attempt, and characters per notification: enough for a scan, bounded for a flood. */
const MAX_NOTIFICATIONS = 200;
const MAX_NOTIFICATION_CHARS = 16 * 1024;

/** Adds a notification's model-visible text to the attempt `http` (or the current one). */
export function noteNotification(text: string, http: AttemptHttp | undefined = currentAttempt()): void {
  if (!http) return;
  http.notifications ??= [];
  if (http.notifications.length < MAX_NOTIFICATIONS) http.notifications.push(text.slice(0, MAX_NOTIFICATION_CHARS));
}

const storage = new AsyncLocalStorage<AttemptHttp>();

export function runInAttempt<T>(http: AttemptHttp, fn: () => Promise<T>): Promise<T> {
  return storage.run(http, fn);
}

export function currentAttempt(): AttemptHttp | undefined {
  return storage.getStore();
}

/** A fetch that records each response's status and Retry-After into the current attempt. */
export function recordingFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const attempt = currentAttempt();
    // Counted as sent, whatever becomes of its answer: a round the edge loses was still a round trip begun.
    if (attempt && typeof init?.body === 'string' && isInputRound(init.body)) {
      attempt.inputRounds = (attempt.inputRounds ?? 0) + 1;
    }
    const response = await inner(input, init);
    if (attempt && response.ok && init?.method === 'GET' && new Headers(init.headers).has('last-event-id')) {
      attempt.resumptions = (attempt.resumptions ?? 0) + 1;
    }
    if (attempt && (init?.method ?? 'GET') === 'POST') {
      attempt.status = response.status;
      const advised = parseRetryAfter(response.headers.get('retry-after'));
      if (advised !== undefined) attempt.retryAfterMs = advised;
      // The last POST decides: SDK 2.4 re-sends a request refused with -32020 once, which may pass untouched.
      if (response.headers.has(HEADER_TAMPERED_HEADER)) attempt.headerTampered = true;
      else delete attempt.headerTampered;
    }
    return response;
  };
}
