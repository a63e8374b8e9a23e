// The logical key of a request: which op (trace id), which attempt of it, and which of that attempt's requests.
// A seam that draws per request draws from `<its stream>/<key>`, so the draw is a function of seed, stream and key
// and not of the order in which concurrent requests arrive. The dependency fault engine builds the same key from
// the forwarded headers; the MCP-edge rules build it from the request's `_meta`.
import { opName } from './op-name.ts';
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

type TraceOf = Readonly<{ trace?: string; attempt?: number }>;

/** The last traced body read, and what it carried: the client's fetch and then the edge seam read each body in turn. */
let lastBody: string | undefined;
let lastTrace: TraceOf = {};

/** The same, from a JSON-RPC request body as sent over HTTP (cheap when the body carries no trace id). */
export function traceOfBody(body: string | undefined): TraceOf {
  if (!body?.includes(TRACE_META_KEY)) return {};
  if (body === lastBody) return lastTrace;
  let trace: TraceOf;
  try {
    trace = Object.freeze(traceOfMessage(JSON.parse(body)));
  } catch {
    trace = {};
  }
  lastBody = body;
  lastTrace = trace;
  return trace;
}

/**
 * The op's part of a trace id: a shard's trace id is `<run>:<i>-of-<n>:<profile>:<op id>` (run/trace-key.ts), an
 * unsharded one the op id itself. Draws key on it, so a sharded run meets the same faults op for op as the whole run.
 */
function opOfTrace(trace: string): string {
  return trace.slice(trace.lastIndexOf(':') + 1);
}

/** Where requestKey counts, by countKey: a Map, or AttemptOrdinals for a long-lived seam. */
interface Ordinals {
  get(key: CountKey): number | undefined;
  set(key: CountKey, ordinal: number): void;
}

type CountKey = string | number;

/** Attempts 1 to 15 of an op id `op-<five to seven digits>` (the planner's) pack into one small integer. */
const ATTEMPTS_PACKED = 16;
const PLANNED_OP = /^op-(\d{5,7})$/;

/**
 * What an attempt's requests are counted under: for a planned op id (unsharded) and attempts 1 to 15, op index ×
 * 16 + attempt, a small integer that a Map holds with no string (a count is kept for every attempt of one to two
 * generations: the string was about half of it); else the trace and attempt as one flat string. Both forms are
 * one-to-one (the number only for the one spelling of its op id and attempt), so counts are exactly as before.
 */
function countKey(trace: string, attempt: number | string | undefined): CountKey {
  const op = PLANNED_OP.exec(trace);
  const [n, a] = [Number(op?.[1]), Number(attempt)];
  const planned = op !== null && trace === opName(n);
  if (planned && Number.isInteger(a) && a >= 1 && a < ATTEMPTS_PACKED && String(a) === String(attempt))
    return n * ATTEMPTS_PACKED + a;
  // Joined, not a template: kept up to two generations per attempt, a template's string is a tree of its pieces
  // (holding the header's trace string too), a join's one flat string.
  return attempt === undefined ? trace : [trace, '/attempt-', attempt].join('');
}

/** How long an attempt's request count outlives its last request: far longer than any one request takes. */
const ORDINAL_GENERATION_MS = 10 * 60_000;
/** The shortest generation. */
const MIN_GENERATION_MS = 60_000;

/**
 * The generation for a client whose ops end within `opSpanMs` (its deadline plus one attempt timeout: no try starts
 * after the deadline, and each ends within its timeout): the edge sees only the client's requests, so a count
 * quiet for twice that long (and at least a minute) belongs to an attempt that is over. Ten minutes at most.
 */
export function ordinalGenerationFor(opSpanMs: number): number {
  if (!Number.isFinite(opSpanMs)) return ORDINAL_GENERATION_MS;
  return Math.min(ORDINAL_GENERATION_MS, Math.max(MIN_GENERATION_MS, 2 * opSpanMs));
}

/**
 * Request counts by attempt, each forgotten once its attempt has been quiet for a whole generation (ten minutes,
 * or ordinalGenerationFor the client's bounds; a count lives one to two generations): an attempt's requests are
 * sequential and each ends within its timeout, so a count untouched that long belongs to an attempt that is over,
 * and a long run does not keep a count for every attempt it ever made.
 */
export class AttemptOrdinals implements Ordinals {
  private current = new Map<CountKey, number>();
  private previous = new Map<CountKey, number>();
  private rotatedAt: number;

  constructor(
    private readonly generationMs = ORDINAL_GENERATION_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.rotatedAt = now();
  }

  get(key: CountKey): number | undefined {
    const at = this.now();
    if (at - this.rotatedAt >= this.generationMs) {
      this.previous = this.current;
      this.current = new Map();
      this.rotatedAt = at;
    }
    return this.current.get(key) ?? this.previous.get(key);
  }

  set(key: CountKey, ordinal: number): void {
    this.current.set(key, ordinal);
    this.previous.delete(key);
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
  }
}

/**
 * `<op>/attempt-<n>/request-<k>`: k counts the requests of the (whole, scoped) trace's attempt so far in `seen`,
 * the key names the op only (opOfTrace).
 */
export function requestKey(trace: string, attempt: number | string | undefined, seen: Ordinals): string {
  const counted = countKey(trace, attempt);
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
  private readonly seen: AttemptOrdinals;

  constructor(generationMs?: number) {
    this.seen = new AttemptOrdinals(generationMs);
  }

  next({ trace, attempt }: { trace?: string; attempt?: number }): string | undefined {
    if (trace === undefined) return undefined;
    return requestKey(trace, attempt, this.seen);
  }
}
