// Report notes on what the client transport reported (client.onerror): SSE streams dropped, reconnects refused,
// and the SDK giving up on a stream for good, which it does silently (no onclose, POSTs keep working).
import type { TransportEvent } from '../core/history.ts';

export function transportNotes(events: readonly TransportEvent[]): string[] {
  const count = (kind: TransportEvent['kind']) => events.filter((e) => e.kind === kind).length;
  const notes: string[] = [];
  const exhausted = events.filter((e) => e.kind === 'reconnect-exhausted');
  if (exhausted.length > 0) {
    notes.push(
      `the SDK client gave up reconnecting an SSE stream ${exhausted.length} time(s) ("${exhausted[0].message}"): ` +
        'the standalone GET stream stays closed for that session (server notifications are lost) while POSTs keep working',
    );
  }
  const failed = count('reconnect-failed');
  if (failed > 0) notes.push(`${failed} SSE reconnect attempt(s) failed`);
  const dropped = count('sse-disconnected');
  if (dropped > 0) notes.push(`${dropped} SSE stream(s) disconnected mid-read (client.onerror)`);
  const late = count('late-response');
  if (late > 0) {
    notes.push(`${late} response(s) arrived after the client had given up (executed but abandoned)`);
  }
  return notes;
}
