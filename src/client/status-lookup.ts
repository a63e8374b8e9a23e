// Before re-executing a side effect whose outcome is uncertain, ask the server whether the idempotency key
// already took effect (the seeds' "check state before re-executing").
import { TRACE_META_KEY } from '../core/wire.ts';
import type { LogicalCall, PolicyContext } from './policy.ts';

export type LookupStatus = 'found' | 'absent' | 'unknown';

export async function lookupStatus(
  ctx: PolicyContext,
  call: LogicalCall,
  key: string,
  timeoutMs: number,
): Promise<LookupStatus> {
  const lookup = call.statusLookup!;
  try {
    const { connection } = await ctx.session.get();
    const result = await connection.client.callTool(
      { name: lookup.tool, arguments: { [lookup.keyArg]: key }, _meta: { [TRACE_META_KEY]: `${call.opId}/lookup` } },
      undefined,
      { timeout: Math.max(1, timeoutMs) },
    );
    if (result.isError) return 'unknown';
    const status = (result.structuredContent as { status?: string } | undefined)?.status;
    return status === 'succeeded' ? 'found' : status === 'not_found' ? 'absent' : 'unknown';
  } catch {
    return 'unknown';
  }
}
