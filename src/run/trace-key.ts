// The trace id an op carries on the wire when many workers drive one server: run, shard and profile before the
// op id, so one shared ledger tells every shard's effects apart (op ids alone repeat across profiles and runs).
// Each shard keeps the effects under its own prefix and strips it, so reconciliation still matches op ids.
import type { Effect } from '../core/ledger.ts';
import type { Shard } from './shard.ts';

export interface RunScope {
  /** The same for every shard of one run (e.g. the CI run id or the Job's uid), new for every run. */
  runId: string;
  shard: Shard;
  profile: string;
}

/** `run/i-of-n/profile/` (run ids may not contain "/"). */
function scopePrefix(scope: RunScope): string {
  if (scope.runId === '' || scope.runId.includes('/')) throw new Error(`run id "${scope.runId}": expected no "/"`);
  return `${scope.runId}/${scope.shard.index}-of-${scope.shard.count}/${scope.profile}/`;
}

export function traceKey(scope: RunScope, opId: string): string {
  return `${scopePrefix(scope)}${opId}`;
}

/**
 * This shard's effects out of a shared ledger, trace ids back to op ids. Effects without a trace id (a server
 * that does not forward it) are kept: only argsKey can attribute them, and argsKey values must not repeat across
 * shards for that to be exact.
 */
export function ownEffects(effects: readonly Effect[], scope: RunScope): Effect[] {
  const prefix = scopePrefix(scope);
  const own: Effect[] = [];
  for (const e of effects) {
    if (e.traceId === undefined) own.push(e);
    else if (e.traceId.startsWith(prefix)) own.push({ ...e, traceId: e.traceId.slice(prefix.length) });
  }
  return own;
}
