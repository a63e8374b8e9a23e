// The client reads along an attempt's SSE answer: the answer reaches the SDK byte for byte in its own Response
// object (only `body` is the watched stream), a log message on it is noted on the attempt, a broken stream names its
// attempt when the SDK puts the error into words; a refused answer, and any answer that is not SSE, pass untouched.
import { describe, expect, it } from 'vitest';
import type { AttemptHttp } from '../../../src/client/attempt-http.ts';
import { AttemptRegistry } from '../../../src/client/attempt-registry.ts';
import { watchedResponse } from '../../../src/client/watched-stream.ts';

const encoder = new TextEncoder();
const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const log = event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'canary-7' } });
const answer = event({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } });

/** A streamed body of these chunks (split anywhere), ending with `end`: done, or an error. */
function stream(chunks: string[], end: Error | 'done' = 'done'): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
      else if (end === 'done') controller.close();
      else controller.error(end);
    },
  });
}

const sse = (body: ReadableStream<Uint8Array>, status = 200) =>
  new Response(body, { status, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' } });

describe('watchedResponse', () => {
  it('passes an accepted SSE answer on as it came, in its own object, and notes its log message', async () => {
    const http: AttemptHttp = {};
    const text = log + answer;
    // Split inside the log event: the read-along must see it whole.
    const response = sse(stream([text.slice(0, 30), text.slice(30, 95), text.slice(95)]));
    const watched = watchedResponse(response, http, new AttemptRegistry());
    expect(watched).toBe(response);
    expect(watched.status).toBe(200);
    expect(watched.headers.get('mcp-session-id')).toBe('s-1');
    expect(await new Response(watched.body).text()).toBe(text);
    expect(http.notifications).toEqual([JSON.stringify({ level: 'info', data: 'canary-7' })]);
  });

  it('names the attempt whose stream broke when the SDK puts the error into words', async () => {
    const attempts = new AttemptRegistry();
    const http: AttemptHttp = {};
    const watched = watchedResponse(sse(stream([log], new Error('terminated'))), http, attempts);
    const reader = watched.body!.getReader();
    await reader.read();
    const error = await reader.read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).toBe('Error: terminated');
    expect(attempts.takeBroken(new Error(`SSE stream disconnected: ${String(error)}`))).toBe(http);
  });

  it('leaves a refused SSE answer and a JSON answer untouched: their text reads as sent, nothing is noted', async () => {
    for (const response of [
      sse(stream([log]), 500),
      new Response(log, { status: 200, headers: { 'content-type': 'application/json' } }),
    ]) {
      const http: AttemptHttp = {};
      const body = response.body;
      const passed = watchedResponse(response, http, new AttemptRegistry());
      expect(passed).toBe(response);
      expect(passed.body).toBe(body);
      expect(await passed.text()).toBe(log);
      expect(http.notifications).toBeUndefined();
    }
  });
});
