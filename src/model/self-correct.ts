// The model's side of a tool call, scripted: when a call fails with VALIDATION, the corrector repairs it from
// what the server said and the call is made again, at most `maxCorrections` times; the loop guard stops a
// correction that would only repeat a call that already failed the same way. One op, however many calls.
import type { ClientPolicy, LogicalCall, OpResult, PolicyContext } from '../client/policy.ts';
import { correctArgs, correctTool } from './corrector.ts';
import { LoopGuard } from './loop-guard.ts';

export interface SelfCorrectOptions {
  maxCorrections: number;
  /** Traits (side effects, key argument) of a tool the correction switched to. */
  traitsOf(tool: string): Omit<LogicalCall, 'opId' | 'tool' | 'args'>;
  /** The tools the server lists (what a model has in its context). */
  listTools(): Promise<string[]>;
}

export interface SelfCorrected {
  result: OpResult;
  /** The tool the op ended on (after a corrected name). */
  tool: string;
  sideEffecting: boolean;
  corrections: number;
  loopGuardStop: boolean;
}

export async function executeWithCorrections(
  policy: ClientPolicy,
  first: LogicalCall,
  ctx: PolicyContext,
  options: SelfCorrectOptions,
): Promise<SelfCorrected> {
  const guard = new LoopGuard();
  let call = first;
  let corrections = 0;
  let loopGuardStop = false;
  let total: OpResult | undefined;
  for (;;) {
    const offset = total?.attempts ?? 0;
    // Attempt numbers continue across corrected calls: they are one op.
    const result = await policy.execute(call, {
      ...ctx,
      recordAttempt: (a) => ctx.recordAttempt({ ...a, attempt: a.attempt + offset }),
    });
    total = total ? merge(total, result) : result;
    const code = result.errorCode;
    if (result.outcome === 'ok' || result.category !== 'VALIDATION' || !code || corrections >= options.maxCorrections)
      break;
    guard.recordFailure(call.tool, call.args, code);
    const tool =
      code === 'VALIDATION.UNKNOWN_TOOL' ? (correctTool(call.tool, await options.listTools()) ?? call.tool) : call.tool;
    const args = tool === call.tool ? correctArgs(call.args, result.fieldErrors ?? []) : call.args;
    if (guard.wouldRepeat(tool, args, code)) {
      loopGuardStop = true;
      break;
    }
    corrections++;
    call = { ...call, ...options.traitsOf(tool), tool, args };
  }
  return { result: total, tool: call.tool, sideEffecting: call.sideEffecting, corrections, loopGuardStop };
}

function merge(a: OpResult, b: OpResult): OpResult {
  return {
    ...b,
    // An earlier call that may have taken effect keeps the op indeterminate unless a later one succeeded.
    outcome: b.outcome === 'ok' || a.outcome !== 'info' ? b.outcome : 'info',
    attempts: a.attempts + b.attempts,
    failedAttempts: a.failedAttempts + b.failedAttempts,
    lookups: a.lookups + b.lookups,
    lookupsFound: (a.lookupsFound ?? 0) + (b.lookupsFound ?? 0),
    authRefreshes: (a.authRefreshes ?? 0) + (b.authRefreshes ?? 0),
    circuitOpen: a.circuitOpen || b.circuitOpen,
    keys: [...new Set([...a.keys, ...b.keys])],
  };
}
