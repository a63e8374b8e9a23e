// `--shard i/n`: which deterministic share of a run this process runs. Several profiles are split whole: sorted
// by name, profile k (0-based) goes to shard (k mod n) + 1. One profile is split by its ops: shard i owns the op
// indices i-1, i-1+n, i-1+2n, ... of the seed's schedule (strided, not contiguous, so every shard sees every fault
// window and op ids stay unique across shards), and a closed-model profile's workers are dealt out the same way.
// Every function here is pure: the same profiles and shard give the same share on every machine.
import { InvalidArgumentError } from 'commander';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Most shards a run can be split into (a bigger n is a typo, not a plan). */
const MAX_SHARDS = 10_000;

export function parseShard(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new InvalidArgumentError(
      `expected i/n with 1 <= i <= n <= ${MAX_SHARDS} (e.g. 2/4: the second of four shards)`,
    );
  }
  return { index, count };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** What a shard runs: whole profiles, or a share of one profile's ops. */
export type ShardShare<P> = { split: 'profiles'; profiles: P[] } | { split: 'ops'; profile: P };

interface Named {
  file: string;
  profile: { name: string };
}

/** Profiles in the order every shard agrees on: by name, then by file name. */
export function shardOrder<P extends Named>(profiles: readonly P[]): P[] {
  const key = (p: P) => [p.profile.name, p.file.split('/').pop() ?? p.file] as const;
  return [...profiles].sort((a, b) => {
    const [an, af] = key(a);
    const [bn, bf] = key(b);
    return an < bn ? -1 : an > bn ? 1 : af < bf ? -1 : af > bf ? 1 : 0;
  });
}

export function shareOf<P extends Named>(profiles: readonly P[], shard: Shard): ShardShare<P> {
  if (profiles.length === 1 && shard.count > 1) return { split: 'ops', profile: profiles[0] };
  return { split: 'profiles', profiles: shardOrder(profiles).filter((_, k) => k % shard.count === shard.index - 1) };
}

/**
 * Whether this shard runs op `index` (0-based, the schedule's index) of a profile split by ops. The schedule draws
 * each op's tool from one sequential stream, so a shard plans every op in order and runs the ones it owns: the
 * same ops, with the same tools and arguments, as the unsharded run.
 */
export function ownsOp(shard: Shard, index: number): boolean {
  return index % shard.count === shard.index - 1;
}

/** The op indices this shard owns among the first `total` (open model: total = the schedule's op count). */
export function ownedOps(shard: Shard, total: number): number[] {
  const owned: number[] = [];
  for (let i = shard.index - 1; i < total; i += shard.count) owned.push(i);
  return owned;
}

/** This shard's share of a closed-model profile's workers: the n shares add up to `concurrency`, the first get one more. */
export function workerShare(shard: Shard, concurrency: number): number {
  return Math.floor(concurrency / shard.count) + (shard.index - 1 < concurrency % shard.count ? 1 : 0);
}
