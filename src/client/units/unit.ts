// A policy unit: one concern (deadline, retry, breaker, ...) wrapped around the rest of an op's try, as
// cockatiel's `wrap` nests policies. Unlike a policy inside `wrap`, which is handed only the abort signal, a
// unit also sees the context the outer units made (the try's time budget); cockatiel's own policies become
// units through `policyUnit`, so the context flows through them as it does through `wrap`.
import type { IDefaultPolicyContext, IPolicy } from 'cockatiel';
import type { Classified } from '../classified.ts';
import type { OpTally } from '../op-tally.ts';
import type { LogicalCall, PolicyContext } from '../policy.ts';

/** What a try carries inward. */
interface TryContext extends IDefaultPolicyContext {
  /** How long this try's calls may take (what the deadline leaves, capped by the attempt timeout). */
  timeoutMs?: number;
}

/** One try of an op: what it came to; a failed attempt throws AttemptFailed. */
export type Try = (context: TryContext) => Promise<Classified>;

export type Unit = (next: Try) => Try;

/** The units around the innermost step, outermost first. */
export function compose(units: readonly Unit[], innermost: Try): Try {
  return units.reduceRight<Try>((next, unit) => unit(next), innermost);
}

/** A cockatiel policy as a unit: it runs the rest of the chain with the context merged with what it adds. */
export function policyUnit(policy: IPolicy<IDefaultPolicyContext>): Unit {
  return (next) => (context) => policy.execute((added) => next({ ...context, ...added }), context.signal);
}

/** One call of an op, as its units see it. */
export interface OpRun {
  call: LogicalCall;
  ctx: PolicyContext;
  tally: OpTally;
  /** The call's one idempotency key (`idem-<opId>`), when its tool takes one. */
  key?: string;
  /** Attempts of the op before this call (a corrected op is one op over several calls). */
  attemptsBefore: number;
  /** The tool the op means to call, whatever name this call uses (the circuit breaker's key). */
  opTool: string;
}
