// The server closes the POST SSE stream of a tools/call after its priming event and before its result
// (`transport.closeSSEStream(requestId)`). With the event store the client resumes (GET + Last-Event-ID) and gets
// the result once; without it the result is lost and the client waits for its timeout although the tool ran.
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type BehaviourHost, type BehaviourSession, defineBehaviour } from './behaviour.ts';

interface StreamCloseState {
  /** Matching tools/calls seen while a window was open, over the whole server (for `every`). */
  toolCalls: number;
  /** Requests whose stream is to be closed, per session, with the host of the window that chose them. */
  closing: WeakMap<BehaviourSession, Map<RequestId, BehaviourHost>>;
}

function close(state: StreamCloseState, session: BehaviourSession, id: RequestId): void {
  const closing = state.closing.get(session);
  const host = closing?.get(id);
  if (!host) return;
  closing!.delete(id);
  host.count('toolStreamsClosed');
  session.transport.closeSSEStream(id);
}

export const streamClose = defineBehaviour({
  kind: 'stream-close',
  summary: 'the server closes a tools/call SSE stream mid-call, before the result',
  covers: ['protocol'],
  params: z.strictObject({
    every: z.number().int().positive().default(1).describe('every Nth tools/call (counted over the server)'),
    tools: z.array(z.string()).optional().describe('only calls of these tools (default: every tool)'),
    afterMs: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('close this many ms after the call arrived, if the result is not out yet (default: just before it)'),
  }),
  counters: ['toolStreamsClosed'],
  removedOnModernWire:
    'it closes a stream after its priming event for Last-Event-ID resumption, which the 2026-07-28 wire removed',
  state: (): StreamCloseState => ({ toolCalls: 0, closing: new WeakMap() }),
  received(p, message, session, host, state) {
    if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return;
    const tool = (message.params as { name?: string } | undefined)?.name ?? '';
    if (p.tools && !p.tools.includes(tool)) return;
    state.toolCalls++;
    if (state.toolCalls % p.every !== 0) return;
    const closing = state.closing.get(session) ?? new Map<RequestId, BehaviourHost>();
    state.closing.set(session, closing);
    closing.set(message.id, host);
    if (p.afterMs !== undefined) setTimeout(() => close(state, session, message.id), p.afterMs).unref();
  },
  sending(message, session, _host, state) {
    // Close the stream just before the result goes out: the priming event is there, the result is not.
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      close(state, session, message.id);
    }
  },
});
