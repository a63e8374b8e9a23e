// Finds the largest payload a transport carries, per direction: request arguments grow until the server refuses
// them (413 over HTTP), tool results grow until the client can no longer receive them in time. Steps up
// geometrically, then bisects between the last size that worked and the first that failed.

import { classifyError } from '../client/classify.ts';
import type { Session } from '../client/session.ts';
import { TRACE_META_KEY } from '../core/wire.ts';

interface DirectionLimit {
  /** Largest size that went through, in bytes (0 when even the smallest failed). */
  largestOkBytes: number;
  /** Smallest size that failed, or null when every size up to the ceiling worked. */
  firstFailBytes: number | null;
  /** How the first failing size failed (errorCode), when one did. */
  failure?: string;
  probes: number;
}

export interface LimitsReport {
  transport: string;
  request: DirectionLimit;
  result: DirectionLimit;
}

export interface LimitOptions {
  fromBytes: number;
  ceilingBytes: number;
  /** Bisection steps after the first failure (each halves the gap). */
  bisect: number;
  timeoutMs: number;
}

type Probe = (bytes: number) => Promise<{ ok: true } | { ok: false; code: string }>;

async function findLimit(probe: Probe, o: LimitOptions): Promise<DirectionLimit> {
  let ok = 0;
  let fail: number | null = null;
  let failure: string | undefined;
  let probes = 0;
  for (
    let size = o.fromBytes;
    size <= o.ceilingBytes;
    size = size * 2 > o.ceilingBytes && size < o.ceilingBytes ? o.ceilingBytes : size * 2
  ) {
    probes++;
    const r = await probe(size);
    if (!r.ok) {
      fail = size;
      failure = r.code;
      break;
    }
    ok = size;
    if (size === o.ceilingBytes) break;
  }
  for (let i = 0; fail !== null && i < o.bisect && fail - ok > 1024; i++) {
    const mid = Math.floor((ok + fail) / 2);
    probes++;
    const r = await probe(mid);
    if (r.ok) ok = mid;
    else {
      fail = mid;
      failure = r.code;
    }
  }
  return { largestOkBytes: ok, firstFailBytes: fail, ...(failure && { failure }), probes };
}

/** A tools/call answered by the tool (even with isError) means the transport carried it. */
async function call(session: Session, args: Record<string, unknown>, timeoutMs: number) {
  try {
    const { connection } = await session.get();
    await connection.client.callTool(
      { name: 'search_documents', arguments: args, _meta: { [TRACE_META_KEY]: 'limits' } },
      undefined,
      { timeout: timeoutMs },
    );
    return { ok: true as const };
  } catch (error) {
    const c = classifyError(error);
    if (c.sessionLost || c.transportLost)
      await session.renew((await session.get().catch(() => undefined))?.generation ?? -1);
    return { ok: false as const, code: c.errorCode ?? 'UNKNOWN' };
  }
}

export async function discoverLimits(session: Session, transport: string, o: LimitOptions): Promise<LimitsReport> {
  // Request: an argument of N bytes (the tool refuses it as VALIDATION, after the transport carried it).
  const request = await findLimit(
    (bytes) => call(session, { query: 'limits', padding: 'x'.repeat(bytes) }, o.timeoutMs),
    o,
  );
  // Result: one document of N bytes.
  const result = await findLimit(
    (bytes) => call(session, { query: '*', page_size: 1, snippet_bytes: bytes }, o.timeoutMs),
    o,
  );
  return { transport, request, result };
}
