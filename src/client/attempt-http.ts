// What the HTTP layer saw during one attempt: the SDK turns a 429 into a plain StreamableHTTPError and drops the
// headers, so the client's fetch (recording-fetch.ts) writes them here, and what the attempt's streams carried.
import type { TaskAttempt } from '../core/history.ts';

export interface AttemptHttp {
  status?: number;
  retryAfterMs?: number;
  /** SSE resumptions of this attempt's stream: accepted GETs with the Last-Event-ID of one of its events. */
  resumptions?: number;
  /**
   * Progress and log notifications that arrived on this attempt's own streams, as model-visible text. Progress
   * comes through the call's own handler; a log message is read off the attempt's SSE streams (watched-stream.ts).
   * Over stdio one reader serves every request, so a log message there belongs to no attempt.
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

/** Adds a notification's model-visible text to the attempt `http`. */
export function noteNotification(text: string, http: AttemptHttp): void {
  http.notifications ??= [];
  if (http.notifications.length < MAX_NOTIFICATIONS) http.notifications.push(text.slice(0, MAX_NOTIFICATION_CHARS));
}
