// The model's side of a tool call, scripted: when a call fails with VALIDATION, the corrector repairs it from
// what the server said and the call is made again, at most `maxCorrections` times; the loop guard stops a
// correction that would only repeat a call that already failed the same way. One op, however many calls.

import { correctArgs, correctTool } from '../../model/corrector.ts';
import { LoopGuard } from '../../model/loop-guard.ts';
import type { CallOutcome, ClientOpFields, LogicalCall, PolicySession } from '../policy.ts';

export interface SelfCorrectOptions {
  maxCorrections: number;
  /** Traits (side effects, key argument) of a tool the correction switched to. */
  traitsOf(tool: string): Omit<LogicalCall, 'opId' | 'tool' | 'args'>;
  /** The tools the server lists (what a model has in its context). */
  listTools(): Promise<string[]>;
}

/** Runs one call of the op; its attempts are numbered after the op's `attemptsBefore`. */
export type CallRunner = (call: LogicalCall, attemptsBefore: number) => Promise<CallOutcome>;

export async function executeWithCorrections(
  runCall: CallRunner,
  first: LogicalCall,
  options: SelfCorrectOptions,
): Promise<ClientOpFields> {
  const guard = new LoopGuard();
  let call = first;
  let corrections = 0;
  let loopGuardStop = false;
  let total: ClientOpFields | undefined;
  for (;;) {
    const result = await runCall(call, total?.attempts ?? 0);
    total = total ? merge(total, result.fields) : result.fields;
    const { outcome, category, errorCode: code } = result.fields;
    if (outcome === 'ok' || category !== 'VALIDATION' || !code || corrections >= options.maxCorrections) break;
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
  return { ...total, ...(corrections > 0 && { corrections }), ...(loopGuardStop && { loopGuardStop: true }) };
}

/** The tool names the session's server lists, asked once per run (again after a failed ask). */
export function toolLister(session: PolicySession): () => Promise<string[]> {
  let tools: Promise<string[]> | undefined;
  return () => {
    tools ??= session
      .get()
      .then(({ connection }) => connection.client.listTools())
      .then((r) => r.tools.map((t) => t.name));
    tools.catch(() => {
      tools = undefined;
    });
    return tools;
  };
}

const sum = (a?: number, b?: number) => (a ?? 0) + (b ?? 0);

function merge(a: ClientOpFields, b: ClientOpFields): ClientOpFields {
  const lookupsFound = sum(a.lookupsFound, b.lookupsFound);
  const authRefreshes = sum(a.authRefreshes, b.authRefreshes);
  // A corrected call is a new call, not a replay: each call counts its own retries.
  const replays = (['retries', 'replaysAfterUnknown', 'unsafeReplays'] as const).flatMap((k) => {
    const n = sum(a[k], b[k]);
    return n > 0 ? [[k, n]] : [];
  });
  return {
    ...b,
    // An earlier call that may have taken effect keeps the op indeterminate unless a later one succeeded.
    outcome: b.outcome === 'ok' || a.outcome !== 'info' ? b.outcome : 'info',
    attempts: a.attempts + b.attempts,
    failedAttempts: a.failedAttempts + b.failedAttempts,
    lookups: sum(a.lookups, b.lookups),
    ...(lookupsFound > 0 && { lookupsFound }),
    ...(authRefreshes > 0 && { authRefreshes }),
    ...((a.circuitOpen || b.circuitOpen) && { circuitOpen: true }),
    ...Object.fromEntries(replays),
  };
}
