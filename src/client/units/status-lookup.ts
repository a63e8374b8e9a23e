// Status lookup before re-executing: when an attempt of a side effect may have taken effect, the next try first
// asks the server whether the idempotency key did (the seeds' "check state before re-executing"). Found: the op
// succeeded, nothing is re-executed. Absent: re-executing is safe. Unknown: the key makes a re-execution safe.
import { TRACE_META_KEY } from '../../core/wire.ts';
import { requestOptions } from '../attempt.ts';
import type { Classified } from '../classified.ts';
import { AttemptFailed } from '../failure.ts';
import type { LookupStatus } from '../op-tally.ts';
import { wireId } from '../policy.ts';
import type { OpRun, Unit } from './unit.ts';

const FOUND: Classified = { ok: true, retryable: false, uncertain: false, sessionLost: false, transportLost: false };

export function statusLookup(op: OpRun): Unit {
  const lookup = op.call.statusLookup;
  if (!lookup) return (next) => next;
  return (next) => async (context) => {
    if (op.tally.uncertain && op.key) {
      const status = await lookupStatus(op, lookup, op.key, context.timeoutMs);
      op.tally.record({ type: 'lookup', status });
      if (status === 'found') return FOUND;
    }
    try {
      return await next(context);
    } catch (error) {
      if (error instanceof AttemptFailed && error.classified.uncertain) error.recovery = 'lookup';
      throw error;
    }
  };
}

async function lookupStatus(
  op: OpRun,
  lookup: { tool: string; keyArg: string },
  key: string,
  timeoutMs: number | undefined,
): Promise<LookupStatus> {
  try {
    const { connection } = await op.ctx.session.get();
    const result = await connection.client.callTool(
      {
        name: lookup.tool,
        arguments: { [lookup.keyArg]: key },
        _meta: { [TRACE_META_KEY]: `${wireId(op.call)}/lookup` },
      },
      undefined,
      requestOptions(timeoutMs),
    );
    if (result.isError) return 'unknown';
    const status = (result.structuredContent as { status?: string } | undefined)?.status;
    return status === 'succeeded' ? 'found' : status === 'not_found' ? 'absent' : 'unknown';
  } catch {
    return 'unknown';
  }
}
