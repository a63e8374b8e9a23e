// How a composed policy runs an op: each call goes through the policy's units (outermost first) around one
// attempt step, and the call's tally is its record. When the policy lets the model correct itself and the
// workload plans mistakes, a rejected call may be corrected and re-issued: the op is all its calls.

import type { PlannedOp } from '../../plan/schedule.ts';
import { type AttemptOptions, attemptStep } from '../attempt.ts';
import { AttemptFailed, OpEnded } from '../failure.ts';
import { OpTally } from '../op-tally.ts';
import {
  type CallOutcome,
  type LogicalCall,
  type OpRunner,
  type PolicyContext,
  type RunSetup,
  wireId,
} from '../policy.ts';
import { compose, type OpRun, type Unit } from '../units/unit.ts';
import { type CallRunner, executeWithCorrections, toolLister } from './self-correct.ts';

/** A policy's units for one call (outermost first) and how it makes each attempt. */
export type Composition = (op: OpRun) => { units: Unit[]; attempt?: AttemptOptions };

// No op is aborted from outside: a try ends by its own time budget.
const NEVER_ABORTED = new AbortController().signal;

export function composedOps(
  run: RunSetup,
  composition: Composition,
  options: { selfCorrects?: boolean } = {},
): OpRunner {
  const listTools = toolLister(run.session);
  return async (planned, random) => {
    const ctx: PolicyContext = { session: run.session, client: run.client, random, recordAttempt: run.recordAttempt };
    const runCall: CallRunner = (call, attemptsBefore) => {
      const op = { call, ctx, tally: new OpTally(call), key: oneKey(call), attemptsBefore, opTool: planned.tool };
      const { units, attempt } = composition(op);
      return callThrough(op, units, attempt);
    };
    const first = firstCall(planned, run);
    if (!options.selfCorrects || !run.mistakes) return (await runCall(first, 0)).fields;
    return executeWithCorrections(runCall, first, {
      maxCorrections: run.mistakes.maxCorrections,
      traitsOf: run.traitsOf,
      listTools,
    });
  };
}

/** The op's first call: the planned one, or the model's mistaken version of it. */
function firstCall(planned: PlannedOp, run: RunSetup): LogicalCall {
  const tool = planned.mistake?.tool ?? planned.tool;
  const args = planned.mistake?.args ?? planned.args;
  const traceId = run.traceIdOf?.(planned.opId);
  return { opId: planned.opId, ...(traceId !== undefined && { traceId }), tool, args, ...run.traitsOf(tool) };
}

/** The call's one idempotency key, when its tool takes one. */
export function oneKey(call: LogicalCall): string | undefined {
  return call.idempotencyArg ? `idem-${wireId(call)}` : undefined;
}

/** One call through `units` (outermost first) around the attempt step; its tally says what came of it. */
export async function callThrough(op: OpRun, units: readonly Unit[], attempt?: AttemptOptions): Promise<CallOutcome> {
  let ok = false;
  try {
    ok = (await compose(units, attemptStep(op, attempt))({ signal: NEVER_ABORTED })).ok;
  } catch (error) {
    if (error instanceof AttemptFailed) error.decide(false);
    else if (!(error instanceof OpEnded)) throw error;
  }
  return op.tally.outcome(ok);
}
