// Writes shard.json (measure/shard-format.ts) next to a sharded run's reports, and picks the profiles a shard runs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { History } from '../core/history.ts';
import { wholeHistory } from '../core/record-spill.ts';
import { formatShard, type Shard, shareOf } from '../core/shard.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import { SHARD_FILE, SHARD_FORMAT, type ShardOutput, type ShardProfile } from '../measure/shard-format.ts';
import { notesFor } from '../measure/verdict.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { metricsOptionsFor } from './judging.ts';

/** A shard that cannot run as asked (one line for the user, exit 2). */
class ShardError extends Error {
  readonly userFacing = true;
}

/** What this shard runs of all the run names: whole profiles, or (one profile) its share of the ops. */
export function shardProfiles(all: LoadedProfile[], shard: Shard): { profiles: LoadedProfile[]; opShard?: Shard } {
  const share = shareOf(all, shard);
  if (share.split === 'profiles') return { profiles: share.profiles };
  const { target } = share.profile.profile;
  if (target.kind === 'url') {
    // Shards of one profile on one shared server need trace ids and idempotency keys scoped by shard (docs/scale.md).
    throw new ShardError(
      `--shard ${formatShard(shard)}: one profile (${share.profile.profile.name}) split by its ops on a url target would share one server's idempotency keys and ledger across shards, which needs scoped keys not wired in yet (docs/scale.md); split several profiles, or give each shard its own reference target`,
    );
  }
  return { profiles: [share.profile], opShard: shard };
}

function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The notes a run added itself: the report's notes minus those the verdict derives (merge derives them again). */
function ownNotes(report: ProfileReport, loaded: LoadedProfile): string[] {
  const derived = new Set(notesFor(report.metrics, report.thresholds, metricsOptionsFor(loaded.profile)));
  return report.notes.filter((n) => !derived.has(n));
}

export function shardOutput(
  shard: Shard,
  all: LoadedProfile[],
  run: RunReport,
  histories: Record<string, History>,
  seed: number | undefined,
): ShardOutput {
  const { profiles: ran, opShard } = shardProfiles(all, shard);
  const profiles: ShardProfile[] = ran.map((loaded) => {
    const name = loaded.profile.name;
    const report = run.profiles.find((p) => p.name === name);
    const history = histories[name];
    if (!report || !history) throw new Error(`shard output: profile ${name} has no report or history`);
    return {
      name,
      file: loaded.file,
      profileSha256: sha256File(loaded.file),
      profileSource: readFileSync(loaded.file, 'utf8'),
      seed: report.seed,
      policy: report.policy,
      decisionLogSha256: report.decisionLogSha256,
      notes: ownNotes(report, loaded),
      ...(report.error && { error: report.error }),
      ...(report.verdict === 'inconclusive' && report.verdictReason && { inconclusive: report.verdictReason }),
      ...(report.calibration && { calibration: report.calibration }),
      // shard.json holds the whole history at once (merge recomputes every metric, the leak scan too, from it).
      history: wholeHistory(history),
    };
  });
  return {
    format: SHARD_FORMAT,
    faultline: run.faultline,
    seed: seed ?? null,
    shard: { index: shard.index, count: shard.count },
    split: opShard ? 'ops' : 'profiles',
    run: all.map((l) => ({ name: l.profile.name, profileSha256: sha256File(l.file) })),
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    profiles,
  };
}

/** Writes <outDir>/shard.json; returns its path. */
export async function writeShardOutput(
  outDir: string,
  shard: Shard,
  all: LoadedProfile[],
  run: RunReport,
  histories: Record<string, History>,
  seed: number | undefined,
): Promise<string> {
  const path = join(outDir, SHARD_FILE);
  await writeFile(path, `${JSON.stringify(shardOutput(shard, all, run, histories, seed))}\n`, 'utf8');
  return path;
}
