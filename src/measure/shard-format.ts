// shard.json: what `faultline run --shard i/n` leaves in its --out folder for `faultline merge`. Everything a merge
// needs to judge the whole run again without the original files: the run's full profile list (to prove every shard
// ran the same run), and per profile it ran the profile text, its hash, seed, policy, notes, whole history and the
// leak scan's findings. Format 2 keeps the history's text as history.jsonl does (core/kept-text.ts: no model-visible
// text, secrets redacted), so a shard's artifact holds no secret the run saw; format 1 kept it whole, and merge
// still reads it (it scans that text for leaks itself).
import { z } from 'zod';
import type { History } from '../core/history.ts';
import type { Calibration } from './calibration.ts';
import type { CapacityMode, KneeRule } from './capacity.ts';
import { LEAK_PLACES, type LeakFinding } from './leak-finding.ts';
import type { NotApplicable } from './protocol-matrix.ts';

export const SHARD_FILE = 'shard.json';
export const SHARD_FORMAT = 2;

/** A profile of the run, as every shard saw it before taking its share. */
interface RunProfileRef {
  name: string;
  profileSha256: string;
  /**
   * The protocol pairings the profile runs in (`--protocol` or its `protocol:`). A shard of a run split by profiles
   * uses only its own profiles' pairings, so merge rebuilds the run's matrix columns from these, not the shard's.
   */
  pairings?: string[];
}

/**
 * The faults-off control a profile's relative thresholds (`x control`) were bound by, as the shard ran it before the
 * profile: merge binds them again by the control's merged history, and widens a lower bound by its machine delay.
 */
export interface ControlRun {
  history: History;
  calibration?: Calibration;
}

export interface ShardProfile {
  name: string;
  /** The file as the shard's command line named it. */
  file: string;
  /** SHA-256 of the profile file's bytes. */
  profileSha256: string;
  /** The profile file's text: merge re-reads thresholds and options from it. */
  profileSource: string;
  seed: number;
  policy: string;
  /** The protocol pairing this run of the profile used, when the run named pairings (`--protocol`). */
  pairing?: string;
  decisionLogSha256: string;
  /** Notes the run itself added (warnings, session renewals, target notes), not the ones the verdict derives. */
  notes: string[];
  error?: string;
  inconclusive?: string;
  /** The shard's start-up calibration of the profile (merge judges with the slowest of the shards'). */
  calibration?: Calibration;
  history: History;
  /**
   * What the leak scan found in this shard's ops as they ran (format 2): the history keeps no model-visible text, so
   * merge takes these instead of scanning it. Absent in format 1, whose history kept the text.
   */
  leakFindings?: LeakFinding[];
  /** The faults-off control this shard ran right before the profile, when a relative threshold needed it. */
  control?: ControlRun;
}

export interface ShardOutput {
  /** This build writes SHARD_FORMAT; merge reads format 1 too (the history's text whole, no leak findings). */
  format: 1 | typeof SHARD_FORMAT;
  faultline: string;
  /** The --seed override every profile ran with; null when each ran its own seed. */
  seed: number | null;
  shard: { index: number; count: number };
  /** The run's `--run-id` (the same for every shard of one run), when it was given; merge refuses a mix. */
  runId?: string;
  /** How the run was split: whole profiles, or one profile's ops. */
  split: 'profiles' | 'ops';
  /** Every profile of the run, in the order the command line named them, before the split. */
  run: RunProfileRef[];
  startedAt: string;
  durationMs: number;
  profiles: ShardProfile[];
  /** `faultline capacity --shard`: the review's levels (each level's two runs, split by ops) and its knee rule. */
  capacity?: ShardCapacity;
  /** A run in several pairings (`--protocol auto|matrix`): the matrix's columns, in order. */
  pairings?: { name: string; summary: string }[];
  /** The shard's profiles that a pairing's era makes n/a (not run there), with the reason. */
  notApplicable?: NotApplicable[];
}

export interface ShardCapacity {
  profile: string;
  mode: CapacityMode;
  rule: KneeRule;
  levels: { level: number; control: string; faulted: string }[];
}

const time = z.number().finite();
const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);
const loopLag = loose({
  p99Ms: z.number(),
  maxMs: z.number(),
  samples: z.number(),
  cpuWaitShare: z.number().optional(),
});

const historySchema = loose({
  startMs: time,
  endMs: time,
  ops: z.array(loose({ opId: z.string(), startMs: time, endMs: time, outcome: z.enum(['ok', 'fail', 'info']) })),
  attempts: z.array(loose({ opId: z.string(), startMs: time, endMs: time, ok: z.boolean() })),
  faults: z.array(loose({ id: z.string(), seam: z.string(), kind: z.string(), onMs: time, offMs: time.optional() })),
  effects: z.array(loose({ seq: z.number(), atMs: time, kind: z.string() })),
  decisions: z.array(loose({ stream: z.string(), what: z.string() })),
  transportEvents: z.array(loose({ atMs: time })).optional(),
  breaker: z.array(loose({ atMs: time })).optional(),
});

const calibrationSchema = z.object({
  calls: z.number(),
  timedOut: z.number(),
  p50Ms: z.number().optional(),
  p95Ms: z.number().optional(),
  maxMs: z.number().optional(),
  unavailable: z.string().optional(),
  referenceP95Ms: z.number(),
  marginMs: z.number(),
  tooLoaded: z.string().optional(),
  // The loop stalls watched while the workload ran widen the time bounds (machineDelayMs): without them a
  // merged profile would judge its time bounds tighter than its shard did.
  duringRun: z.object({ harness: loopLag.optional(), server: loopLag.optional() }).optional(),
  probe: loose({
    model: z.enum(['open', 'closed']),
    calls: z.number(),
    timedOut: z.number(),
    durationMs: z.number(),
  }).optional(),
  toolCall: loose({ tool: z.string(), calls: z.number(), timedOut: z.number(), errors: z.number() }).optional(),
});

const shardSchema = z
  .object({
    format: z.union([z.literal(1), z.literal(SHARD_FORMAT)]),
    faultline: z.string(),
    seed: z.number().int().nullable(),
    shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }),
    runId: z.string().optional(),
    split: z.enum(['profiles', 'ops']),
    run: z.array(z.object({ name: z.string(), profileSha256: z.string(), pairings: z.array(z.string()).optional() })),
    startedAt: z.string(),
    durationMs: z.number(),
    profiles: z.array(
      z.object({
        name: z.string(),
        file: z.string(),
        profileSha256: z.string(),
        profileSource: z.string(),
        seed: z.number().int(),
        policy: z.string(),
        pairing: z.string().optional(),
        decisionLogSha256: z.string(),
        notes: z.array(z.string()),
        error: z.string().optional(),
        inconclusive: z.string().optional(),
        calibration: calibrationSchema.optional(),
        history: historySchema,
        leakFindings: z
          .array(
            z.object({
              opId: z.string(),
              where: z.enum(LEAK_PLACES),
              kind: z.string(),
              canary: z.string(),
            }),
          )
          .optional(),
        control: z.object({ history: historySchema, calibration: calibrationSchema.optional() }).optional(),
      }),
    ),
    capacity: z
      .object({
        profile: z.string(),
        mode: z.enum(['concurrency', 'rate']),
        rule: z.object({ p99Ratio: z.number(), successDropPoints: z.number() }),
        levels: z.array(z.object({ level: z.number(), control: z.string(), faulted: z.string() })),
      })
      .optional(),
    pairings: z.array(z.object({ name: z.string(), summary: z.string() })).optional(),
    notApplicable: z.array(z.object({ profile: z.string(), pairing: z.string(), reason: z.string() })).optional(),
  })
  .superRefine((shard, ctx) => {
    // Format 2 keeps no model-visible text: without its findings a merge would count no leak where the run found some.
    if (shard.format === 1) return;
    shard.profiles.forEach((p, i) => {
      if (p.leakFindings === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', i, 'leakFindings'],
          message: "missing (a format 2 shard carries the leak scan's findings; its history has no text to scan)",
        });
      }
    });
  });

/** The problem with a parsed shard.json, as "path: what was expected", or the shard. */
export function parseShardOutput(value: unknown): { shard: ShardOutput } | { problem: string } {
  const parsed = shardSchema.safeParse(value);
  if (parsed.success) return { shard: parsed.data as unknown as ShardOutput };
  const issue = parsed.error.issues[0];
  const path = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
  return { problem: `${path}: ${issue.message}` };
}
