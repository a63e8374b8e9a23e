// Writes shard.json (measure/shard-format.ts) next to a sharded run's reports, and picks the profiles a shard runs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { History } from '../core/history.ts';
import { historyKey } from '../core/history-key.ts';
import { wholeHistory } from '../core/history-records.ts';
import { keptHistory } from '../core/kept-text.ts';
import { type ProtocolChoice, pairingsOf } from '../core/pairing.ts';
import { type Shard, shareOf } from '../core/shard.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import {
  type ControlRun,
  SHARD_FILE,
  SHARD_FORMAT,
  type ShardCapacity,
  type ShardOutput,
  type ShardProfile,
} from '../measure/shard-format.ts';
import { notesFor } from '../measure/verdict.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { metricsOptionsFor } from './judging.ts';

/** What this shard runs of all the run names: whole profiles, or (one profile) its share of the ops. */
export function shardProfiles(all: LoadedProfile[], shard: Shard): { profiles: LoadedProfile[]; opShard?: Shard } {
  const share = shareOf(all, shard);
  if (share.split === 'profiles') return { profiles: share.profiles };
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

/** What one shard ran: the share `run --shard` picks, or (capacity) every run of the review split by ops. */
export interface ShardRun {
  shard: Shard;
  all: LoadedProfile[];
  share: { profiles: LoadedProfile[]; opShard?: Shard };
  capacity?: ShardCapacity;
  /** `--run-id`, when given (a fresh id names no run the other shards could share). */
  runId?: string;
  /** `--protocol`, when given: it overrides every profile's `protocol:`. */
  protocol?: ProtocolChoice;
}

/** The share of a `faultline run --shard`. */
export function runShare(
  shard: Shard,
  all: LoadedProfile[],
  runId: string | undefined,
  protocol?: ProtocolChoice,
): ShardRun {
  return {
    shard,
    all,
    share: shardProfiles(all, shard),
    ...(runId !== undefined && { runId }),
    ...(protocol !== undefined && { protocol }),
  };
}

export function shardOutput(
  { shard, all, share, capacity, runId, protocol }: ShardRun,
  run: RunReport,
  histories: Record<string, History>,
  seed: number | undefined,
  controls: Record<string, ControlRun> = {},
): ShardOutput {
  const { profiles: ran } = share;
  // In several pairings each profile ran once per pairing (histories keyed `name@pairing`, run-suite.ts).
  const several = run.matrix !== undefined;
  const names = new Set(ran.map((l) => l.profile.name));
  const profiles: ShardProfile[] = ran.flatMap((loaded) => {
    const name = loaded.profile.name;
    const reports = run.profiles.filter((p) => p.name === name);
    const skipped = run.notApplicable?.some((n) => n.profile === name) ?? false;
    if (reports.length === 0 && !skipped) throw new Error(`shard output: profile ${name} has no report`);
    return reports.map((report) => {
      const history = histories[historyKey(report, several)];
      if (!history) throw new Error(`shard output: profile ${name} has no history`);
      const control = controls[historyKey(report, several)];
      return {
        name,
        file: loaded.file,
        profileSha256: sha256File(loaded.file),
        profileSource: readFileSync(loaded.file, 'utf8'),
        seed: report.seed,
        policy: report.policy,
        ...(report.pairing && { pairing: report.pairing }),
        decisionLogSha256: report.decisionLogSha256,
        notes: ownNotes(report, loaded),
        ...(report.error && { error: report.error }),
        ...(report.calibration && { calibration: report.calibration }),
        // shard.json holds the whole history at once, its text kept as history.jsonl keeps it (no secret the run saw):
        // merge recomputes every metric from it but the leak scan, whose findings it takes from here.
        history: keptHistory(wholeHistory(history)),
        leakFindings: report.metrics.leakFindings,
        ...(control && { control: { ...control, history: keptHistory(wholeHistory(control.history)) } }),
      };
    });
  });
  const notApplicable = run.notApplicable?.filter((n) => names.has(n.profile)) ?? [];
  return {
    format: SHARD_FORMAT,
    faultline: run.faultline,
    seed: seed ?? null,
    shard: { index: shard.index, count: shard.count },
    ...(runId !== undefined && { runId }),
    split: share.opShard || capacity ? 'ops' : 'profiles',
    run: all.map((l) => ({
      name: l.profile.name,
      profileSha256: sha256File(l.file),
      pairings: pairingsOf(protocol ?? l.profile.protocol).map((p) => p.name),
    })),
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    profiles,
    ...(capacity && { capacity }),
    ...(run.matrix && { pairings: run.matrix.pairings }),
    ...(notApplicable.length > 0 && { notApplicable }),
  };
}

/** Writes <outDir>/shard.json; returns its path. */
export async function writeShardOutput(
  outDir: string,
  ran: ShardRun,
  run: RunReport,
  histories: Record<string, History>,
  seed: number | undefined,
  controls?: Record<string, ControlRun>,
): Promise<string> {
  const path = join(outDir, SHARD_FILE);
  await writeFile(path, `${JSON.stringify(shardOutput(ran, run, histories, seed, controls))}\n`, 'utf8');
  return path;
}
