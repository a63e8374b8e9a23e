// Server-behaviour faults: things that happen inside the reference server itself, set at run time through the
// control channel (setBehaviour replaces the whole active set). Each one acts on the real SDK transport:
//   - session eviction: the server forgets sessions (closes their transports), so the next request with that
//     Mcp-Session-Id gets 404 "Session not found";
//   - stream close: the POST SSE stream of a tools/call is closed after its priming event and before its result
//     (`transport.closeSSEStream(requestId)`): with an event store the client resumes with GET + Last-Event-ID,
//     without one the result is lost;
//   - standalone stream drop: the GET stream is closed and every new GET refused, so the SDK client exhausts
//     its reconnect budget ("Maximum reconnection attempts");
//   - protocol-version override: `initialize` answers this protocolVersion.
import { z } from 'zod';

export const serverBehaviourSchema = z.strictObject({
  /** One-shot: evict every live session when the behaviour is set (not kept in the active set). */
  evictNow: z.boolean().optional(),
  /** Evict a session once it has served this many POSTs with its id (after initialize); the next gets 404. */
  evictAfterRequests: z.number().int().positive().optional(),
  /** Close the POST SSE stream of tools/call requests before their result. */
  closeToolStreams: z
    .strictObject({
      /** Every Nth tools/call (counted over the server), default every one. */
      every: z.number().int().positive().default(1),
      /** Only these tools (default: all). */
      tools: z.array(z.string()).optional(),
      /** Close this long after the call arrived, if the result is not there yet; default: just before the result. */
      afterMs: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** Close the standalone GET stream of every session and refuse new GETs with this HTTP status. */
  dropStandaloneStream: z.strictObject({ refuseStatus: z.number().int().min(400).max(599).default(503) }).optional(),
  /** Answer `initialize` with this protocolVersion (an unsupported one, or an older one to downgrade). */
  protocolVersion: z.string().min(1).optional(),
});

export type ServerBehaviour = z.input<typeof serverBehaviourSchema>;
export type ParsedServerBehaviour = z.output<typeof serverBehaviourSchema>;

/** Counts of what the behaviour faults did, for tests and reports. */
export interface BehaviourStats {
  sessionsEvicted: number;
  toolStreamsClosed: number;
  standaloneStreamsClosed: number;
  getsRefused: number;
  initializeOverridden: number;
}

export function emptyBehaviourStats(): BehaviourStats {
  return {
    sessionsEvicted: 0,
    toolStreamsClosed: 0,
    standaloneStreamsClosed: 0,
    getsRefused: 0,
    initializeOverridden: 0,
  };
}

/** Validates a behaviour with a readable one-line error. */
export function parseBehaviour(input: unknown): ParsedServerBehaviour {
  const parsed = serverBehaviourSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid server behaviour at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
