// An attempt's SSE answer, passed on to the SDK unchanged while the harness reads along: the log messages it
// carries are what the model may see of the attempt, and when it breaks the attempt must be found again from the
// SDK's onerror, which names only the error's text. The SDK builds that text (`SSE stream disconnected: ${error}`)
// from the very error the stream fails with, right before it calls onerror, so the error tells the registry whose
// it was at that moment (answer-lost.ts decides what it means).
import { createParser } from 'eventsource-parser';
import { type AttemptHttp, noteNotification } from './attempt-http.ts';
import type { AttemptRegistry } from './attempt-registry.ts';

/**
 * `response`, its SSE body watched for attempt `http`; any other response as it is. The SDK reads an accepted SSE
 * answer through `body` alone, so the response keeps its own object and only its `body` is the watched stream: a new
 * Response around that stream cost about 20 µs a call (its constructor copies every header), the largest part of
 * reading along (docs/scale.md). A refused one (not ok) is read with text() for the SDK's error, and passes as it is.
 */
export function watchedResponse(response: Response, http: AttemptHttp, attempts: AttemptRegistry): Response {
  const body = response.body;
  if (!body || !response.ok || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  Object.defineProperty(response, 'body', { value: watched(body, http, attempts) });
  return response;
}

function watched(body: ReadableStream<Uint8Array>, http: AttemptHttp, attempts: AttemptRegistry) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (event) => {
      // Cheap first: most events are the answer itself.
      if ((event.event ?? 'message') === 'message' && event.data.includes('notifications/message'))
        noteLogMessage(event.data, http);
    },
  });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          controller.error(new StreamBroke(error, (text) => attempts.streamBroke(http, text)));
          return;
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        parser.feed(decoder.decode(chunk.value, { stream: true }));
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function noteLogMessage(data: string, http: AttemptHttp): void {
  try {
    const message = JSON.parse(data) as { method?: unknown; params?: unknown };
    if (message.method === 'notifications/message') noteNotification(JSON.stringify(message.params), http);
  } catch {
    // Not JSON: the SDK reports it; nothing the model sees.
  }
}

/** The stream's error as it was, except that putting it into words tells whose stream it was. */
class StreamBroke extends Error {
  constructor(
    readonly original: unknown,
    private readonly said: (text: string) => void,
  ) {
    super(original instanceof Error ? original.message : String(original), { cause: original });
    this.name = original instanceof Error ? original.name : 'Error';
  }

  override toString(): string {
    const text = String(this.original);
    this.said(text);
    return text;
  }
}
