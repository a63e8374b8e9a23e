// The logical key of a request: which op (trace id), which attempt of it, and which of that attempt's requests.
// A seam that draws per request draws from `<its stream>/<key>`, so the draw is a function of seed, stream and key
// and not of the order in which concurrent requests arrive. The dependency fault engine builds the same key from
// the forwarded headers; the MCP-edge rules build it from the request's `_meta`.
import { ATTEMPT_META_KEY, TRACE_META_KEY } from './wire.ts';

/** The trace id and attempt number a JSON-RPC request carries in `params._meta`, if any. */
export function traceOfMessage(message: unknown): { trace?: string; attempt?: number } {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  const trace = meta?.[TRACE_META_KEY];
  const attempt = meta?.[ATTEMPT_META_KEY];
  return {
    ...(typeof trace === 'string' && { trace }),
    ...(Number.isSafeInteger(attempt) && { attempt: attempt as number }),
  };
}

/** The same, from a JSON-RPC request body as sent over HTTP (cheap when the body carries no trace id). */
export function traceOfBody(body: string | undefined): { trace?: string; attempt?: number } {
  if (!body?.includes(TRACE_META_KEY)) return {};
  try {
    return traceOfMessage(JSON.parse(body));
  } catch {
    return {};
  }
}

/**
 * The op's part of a trace id: a shard's trace id is `<run>:<i>-of-<n>:<profile>:<op id>` (run/trace-key.ts), an
 * unsharded one the op id itself. Draws key on it, so a sharded run meets the same faults op for op as the whole run.
 */
function opOfTrace(trace: string): string {
  return trace.slice(trace.lastIndexOf(':') + 1);
}

/**
 * `<op>/attempt-<n>/request-<k>`: k counts the requests of the (whole, scoped) trace's attempt so far in `seen`,
 * the key names the op only (opOfTrace).
 */
export function requestKey(trace: string, attempt: number | string | undefined, seen: Map<string, number>): string {
  const counted = attempt === undefined ? trace : `${trace}/attempt-${attempt}`;
  const ordinal = (seen.get(counted) ?? 0) + 1;
  seen.set(counted, ordinal);
  const op = opOfTrace(trace);
  return `${attempt === undefined ? op : `${op}/attempt-${attempt}`}/request-${ordinal}`;
}

/**
 * Numbers each attempt's requests: `<trace>/attempt-<n>/request-<k>` (`<trace>/request-<k>` without an attempt).
 * Undefined without a trace id: such a request has no logical key and draws in arrival order. An attempt's
 * requests are sequential, so k is fixed by what the attempt does, not by timing.
 */
export class RequestKeys {
  private readonly seen = new Map<string, number>();

  next({ trace, attempt }: { trace?: string; attempt?: number }): string | undefined {
    if (trace === undefined) return undefined;
    return requestKey(trace, attempt, this.seen);
  }
}
