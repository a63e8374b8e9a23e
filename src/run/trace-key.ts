// The key an op carries when many workers drive one server: run, shard and profile before the op id, so one
// shared ledger tells every shard's effects apart and no two shards share an idempotency key (op ids alone repeat
// across profiles and runs). Only [A-Za-z0-9._:-], so the same key is a valid idempotency key (server/tools/types).
// Each shard keeps the effects under its own prefix and strips it, so reconciliation still matches op ids.
import { randomBytes } from 'node:crypto';
import type { Effect } from '../core/ledger.ts';
import type { Shard } from '../core/shard.ts';
import { targetKind } from '../under-test/kinds/index.ts';

/** A sharded run's scope: the run and this process's shard (`--run-id`, `--shard`). */
export interface ShardScope {
  /** The same for every shard of one run (e.g. the CI run id or the Job's uid), new for every run. */
  runId: string;
  shard: Shard;
}

export interface RunScope extends ShardScope {
  profile: string;
}

const RUN_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function isRunId(value: string): boolean {
  return RUN_ID.test(value);
}

/** A fresh run id (`--run-id` not given): unique per process, so no two runs or shards share a key. */
export function freshRunId(): string {
  return `r${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** The target is a server every shard shares (reached by URL), so the run's keys must be scoped. */
export function sharesServer(kind: string): boolean {
  return targetKind(kind)?.sharedByShards ?? false;
}

/** `run:i-of-n:profile:` (profile names are [a-z0-9-]; run ids are checked). */
function scopePrefix(scope: RunScope): string {
  if (!isRunId(scope.runId)) throw new Error(`run id "${scope.runId}": expected 1-64 of [A-Za-z0-9._-]`);
  return `${scope.runId}:${scope.shard.index}-of-${scope.shard.count}:${scope.profile}:`;
}

/** The trace id (and the stem of the idempotency key) of an op in a scoped run. */
export function traceKey(scope: RunScope, opId: string): string {
  return `${scopePrefix(scope)}${opId}`;
}

/**
 * This shard's effects out of a shared ledger, trace ids back to op ids. Effects without a trace id (a server
 * that does not forward it) are kept: only argsKey can attribute them, and argsKey values must not repeat across
 * shards for that to be exact.
 */
export function ownEffects(effects: Iterable<Effect>, scope: RunScope): Effect[] {
  const prefix = scopePrefix(scope);
  const own: Effect[] = [];
  for (const e of effects) {
    if (e.traceId === undefined) own.push(e);
    else if (e.traceId.startsWith(prefix)) own.push({ ...e, traceId: e.traceId.slice(prefix.length) });
  }
  return own;
}
