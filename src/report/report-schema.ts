// report.json as a zod schema: the published JSON Schema (schema/report.schema.json) is generated from it, and
// `faultline report` / `baseline` read reports through it. n/a is null; fields a run may not have are optional.
import { z } from 'zod';
import { PER_HIT_COUNTS } from '../measure/per-hit.ts';
import { VERDICTS } from '../measure/run-report.ts';
import { OPERATORS } from '../measure/thresholds.ts';

const count = z.number().int().nonnegative();
const ms = z.number();
const rate = z.number().min(0).max(1);
/** n/a when null: nothing to measure (fail closed: a threshold on it fails unless it says `or n/a`). */
const na = <T extends z.ZodType>(t: T, why: string) => t.nullable().describe(`null = n/a: ${why}`);
const obj = z.strictObject;

const retryRate = {
  retriedOps: count.describe('ops with at least one failed attempt'),
  recoveredOps: count.describe('of those, the ones that ended ok'),
  rate: na(rate, 'no op was retried'),
};

const timed = ms.nullable();
const latency = obj({ count, p50: timed, p90: timed, p95: timed, p99: timed, max: timed }).describe(
  'milliseconds; every percentile null (n/a) when count is 0',
);

const recoveryWindow = obj({
  fault: z.string(),
  kind: z.string(),
  seam: z.string(),
  onAtMs: ms.describe('relative to the run start (set-up included): subtract workloadOffsetMs'),
  offAtMs: ms.nullable().describe('null: the fault was never removed'),
  outageOffAtMs: ms.nullable().describe('end of the outage this window belongs to (overlapping windows are one)'),
  recoveryMs: na(ms, 'not recovered or not measurable (see status)'),
  firstSuccessMs: ms.nullable().describe('null: no op ended ok after the fault ended'),
  recovered: z.boolean(),
  status: z.enum(['recovered', 'not-recovered', 'not-measured', 'no-steady-state', 'never-removed']),
  note: z.string().optional(),
});

const NOT_OBSERVABLE = 'effects are not observable on this target (effectsObservable false)';

const breakerInterval = obj({ key: z.string(), openAtMs: ms, closeAtMs: ms.nullable() });
const delivery = z.enum(['once', 'resumed', 'resent', 'lost', 'ghost', 'duplicated', 'hung', 'failed']);
const counts = z.record(z.string(), count);

const metrics = obj({
  ops: count,
  opsOk: count,
  opsFail: count,
  opsInfo: count,
  attempts: count,
  attemptsPerOp: obj({ mean: z.number().nullable(), max: count.nullable() }).describe('null (n/a) without ops'),
  errorRate: na(rate, 'no op ran'),
  retrySuccessRate: na(rate, 'no op had a failed attempt (see retriedOps)'),
  retriedOps: count.describe('ops with at least one failed attempt: the denominator of retrySuccessRate'),
  retrySuccessByWindow: z.array(obj({ fault: z.string(), kind: z.string(), ops: count, ...retryRate })),
  retrySuccessByKind: z.array(obj({ kind: z.string(), ops: count, ...retryRate })),
  effectsObservable: z.boolean().describe('false: the target gives no way to see effects; effect metrics are n/a'),
  duplicateEffects: na(count, 'effects are not observable on this target (effectsObservable false)'),
  ghostEffects: na(count, 'effects are not observable on this target (effectsObservable false)'),
  lostEffects: na(count, 'effects are not observable on this target (effectsObservable false)'),
  unattributedEffects: na(count, 'effects are not observable on this target (effectsObservable false)'),
  effectsUnknown: z.string().optional().describe('why not, when its read-back or interception failed'),
  // Replay accounting (measure/replays.ts): absent in reports written before it.
  retries: count.optional().describe('attempts after the first of their call'),
  replaysAfterUnknown: count.optional().describe('retries whose previous attempt ended with its effect unknown'),
  unsafeReplays: count
    .optional()
    .describe(
      'retries after an unknown outcome on a side-effecting tool neither declared idempotent nor keyed the server honours',
    ),
  unsafeReplayDuplicates: na(count, NOT_OBSERVABLE).optional(),
  indeterminateEffects: na(count, NOT_OBSERVABLE).optional(),
  lyingHints: na(count, NOT_OBSERVABLE).optional(),
  lyingHintTools: z
    .array(obj({ tool: z.string(), hint: z.enum(['readOnlyHint', 'idempotentHint']), ops: z.array(z.string()) }))
    .optional()
    .describe('each tool whose annotation the effects contradict, with the ops that show it'),
  reconciliation: obj({
    effects: count,
    byTraceId: count,
    byArgsKey: count,
    duplicateOps: z.array(z.string()),
    ghostOps: z.array(z.string()),
    lostOps: z.array(z.string()),
    infoWithEffectOps: z.array(z.string()),
    unattributedSeqs: z.array(count),
  }),
  leaks: na(count, 'no canaries were planted: the leak scan did not run'),
  leaksByKind: counts.describe('findings per canary kind; every kind looked for is present'),
  leakFindings: z.array(
    obj({
      opId: z.string(),
      where: z.enum(['visible', 'attempt', 'notification']),
      kind: z.string(),
      canary: z.string().describe('the marker, masked'),
    }),
  ),
  steadyState: obj({
    ops: count.describe('ops that ran before the first fault could touch them'),
    started: count.describe('ops that started before it'),
    rate: rate.nullable(),
    target: rate,
    floor: rate,
    measured: z.boolean(),
  }),
  faultWindows: z.array(
    obj({
      fault: z.string(),
      seam: z.string(),
      kind: z.string(),
      onAtMs: ms,
      offAtMs: ms.nullable(),
      hits: count
        .nullable()
        .describe('what the window did, counted by its seam; 0 makes the verdict inert; null: the seam cannot count'),
      mayNotHit: z.boolean(),
      window: obj({
        kind: z.enum(['time', 'ops']).describe('time: start/stop in ms; ops: fromOp..toOp by op index'),
        fromOp: count.optional(),
        toOp: count.optional().describe('the last op, included'),
        firstAttempts: count.optional().describe("only each op's first this-many attempts"),
        scope: z
          .enum(['per-request', 'progress'])
          .optional()
          .describe(
            "per-request: the seam picked the ops' requests (exact); progress: opened at fromOp's issue, closed after toOp ended",
          ),
      })
        .optional()
        .describe('absent in reports written before op windows: a time window'),
    }),
  ),
  recovery: z.array(recoveryWindow),
  latencyMs: latency,
  attemptLatencyMs: latency,
  errorsByCategory: counts,
  errorsByCode: counts,
  retryAfterViolations: count,
  throughputOpsPerSec: z.number(),
  durationMs: ms,
  // The client's guards (application metrics).
  breakerOpens: count.optional(),
  breakerOpenIntervals: z.array(breakerInterval).optional(),
  breakerRejections: count.optional(),
  lookups: count.optional(),
  reexecutionsAvoided: count.optional(),
  authRefreshes: count.optional(),
  authEscalations: count.optional(),
  authBlindRetries: count.optional(),
  mistakeOps: count.optional(),
  selfCorrections: count.optional(),
  mistakeOpsJudged: count.optional(),
  selfCorrectionRate: na(rate, 'no mistaken call was judged').optional(),
  loopGuardStops: count.optional(),
  attemptsPerSecondMax: count.optional(),
  internalErrors: count.optional(),
  // The MCP edge.
  detect: z
    .array(obj({ fault: z.string(), kind: z.string(), detectMs: ms.nullable(), errorCode: z.string().optional() }))
    .optional(),
  protoErrors: count.optional(),
  resultsOverBudget: count.optional(),
  resultsTruncated: count.optional(),
  resultsPaginated: count.optional(),
  resultBytesMax: count.optional(),
  discoveryProbes: count.optional().describe('server/discover probes the SDK 2.4 client sent (absent: none)'),
  discoveryFailedProbes: count.optional().describe('probes that got no usable answer (5xx, bare 400, no answer)'),
  discoveryRetries: count.optional().describe('probes sent after the previous probe failed'),
  discoveryMsMax: ms.optional().describe('the slowest probe'),
  wrongFallbacks: count
    .nullable()
    .optional()
    .describe('connects that settled on 2025-11-25 against a server that speaks 2026-07-28; null: unknown'),
  headerTampered: count.optional().describe('attempts whose Mcp-* routing headers a proxy rewrote'),
  headerMismatchRejected: count.optional().describe('of those, refused with HeaderMismatch -32020'),
  headerMismatchExecuted: count.optional().describe('of those, answered in 2xx (dispatched despite the mismatch)'),
  callsWithInput: count
    .optional()
    .describe('completed calls that needed input_required rounds (absent: no round sent)'),
  roundsPerCompletedCall: z
    .number()
    .nonnegative()
    .nullable()
    .optional()
    .describe('round trips per such call, first and retried rounds of every attempt; null: none completed'),
  notificationsDelivered: count.optional().describe('charges announced on a listen stream (absent: nobody listened)'),
  notificationsDuplicated: count.optional().describe('announcements of a charge beyond its first'),
  notificationsLost: count
    .optional()
    .describe(
      "charges never announced on the listen stream that had to announce them (merged op shards: their own shard's)",
    ),
  changesMissed: count.optional().describe('of those, not caught up by a read after listening again either'),
  relistens: count.optional().describe('listens acknowledged after the first, per stream'),
  tasksCreated: count.optional().describe('tasks the client created (absent: no task-only tool was called)'),
  tasksCompleted: count.optional().describe('of those, seen completed by the client'),
  taskCompletionRate: z.number().min(0).max(1).optional().describe('tasksCompleted / tasksCreated'),
  tasksRecreated: count.optional().describe('ops that created a task again instead of resuming theirs'),
  pollsResumed: count.optional().describe('failed tasks/get polls resumed by the task id'),
  tasksForgotten: count
    .optional()
    .describe('tasks the server forgot (unknown task) and the client created again, same key'),
  taskCancelsSent: count.optional().describe("tasks/cancel requests the edge's cancel-race fault sent (absent: none)"),
  taskCancelsWon: count.optional().describe('of those, accepted: the task ended cancelled'),
  taskCancelsRefused: count.optional().describe('of those, refused: the work had claimed the task'),
  tasksCancelledAndCharged: count
    .nullable()
    .optional()
    .describe('tasks that ended cancelled and charged anyway; null: n/a (tasksCancelledAndChargedNa says why)'),
  tasksCancelledAndChargedNa: z.string().optional().describe('why tasksCancelledAndCharged is n/a'),
  // The server seam.
  delivery: z.record(delivery, count).optional(),
  deliveryByOp: z.record(z.string(), delivery).optional(),
  sseResumptions: count.optional(),
  attemptsTimedOut: count.optional(),
  transportEvents: counts.optional(),
  reconnectExhausted: count.optional(),
  // Behaviour counts per fault hit (measure/per-hit.ts).
  perFaultHit: obj({
    hits: na(count, 'no fault window, or a seam that cannot count its hits'),
    ratios: obj(
      Object.fromEntries(Object.keys(PER_HIT_COUNTS).map((name) => [name, na(z.number(), 'no hit to divide by')])),
    ),
  })
    .optional()
    .describe("behaviour counts divided by the fault windows' summed hits: ratios that do not depend on machine speed"),
});

const threshold = obj({
  expr: z.string(),
  metric: z.string(),
  op: z.enum(OPERATORS),
  target: z.number(),
  actual: z.number().nullable().describe('null: no value (see na and reason)'),
  ok: z.boolean().describe("status is 'pass'"),
  status: z
    .enum(['pass', 'fail', 'na-fail', 'inconclusive'])
    .optional()
    .describe(
      'judged on its own: na-fail, nothing to measure; inconclusive, a time upper bound missed by no more than the machine delay (always written; absent only in older reports, where ok decides)',
    ),
  reason: z
    .string()
    .optional()
    .describe('why it failed without a value, or why a missed time bound is inconclusive or fails'),
  na: z.boolean().optional().describe('the metric had nothing to measure'),
  allowNa: z.boolean().optional().describe('the threshold ends in `or n/a`'),
  implicit: z.boolean().optional().describe('added by Faultline, not the profile (e.g. unattributed_effects == 0)'),
  marginMs: ms
    .optional()
    .describe(
      "a missed time upper bound: the machine delay (calibration margin + the machine part of the longest stall) it was compared with; a missed lower bound relative to the control: factor x the control's machine delay",
    ),
  relative: obj({
    factor: z.number().describe('the number before `x control` (also in target)'),
    control: na(z.number(), 'the faults-off control measured nothing: the threshold fails'),
    bound: na(z.number(), 'no control value: the threshold fails').describe(
      'factor x control: what actual is judged against',
    ),
  })
    .optional()
    .describe("a relative threshold (`<factor> x control`): bound by the same run's faults-off control"),
});

const calibrationProbe = obj({
  model: z.enum(['open', 'closed']).describe("the workload's model the probe copied"),
  intendedRate: z
    .number()
    .optional()
    .describe("open model: pings per second offered (the workload's rate, a shard's share)"),
  concurrency: count.optional().describe("closed model: pings in flight at once (the workload's workers)"),
  calls: count.describe('probe pings sent'),
  timedOut: count.describe("probe pings that took longer than the client's attempt timeout"),
  achievedRate: z
    .number()
    .optional()
    .describe('completions per second between the first and the last completion (absent with fewer than 3)'),
  p50Ms: ms.optional().describe("from each ping's intended start to its answer"),
  p95Ms: ms.optional(),
  maxMs: ms.optional(),
  durationMs: ms.describe('how long the probe took'),
  unavailable: z.string().optional().describe('a probe ping got another answer than a pong: the probe was not judged'),
  skipped: z
    .string()
    .optional()
    .describe("why no probe ran: the idle pings' p95 times the rate showed calls at this rate cannot queue"),
});

const calibrationToolCall = obj({
  tool: z.string().describe('the read-only workload tool timed (readOnlyHint, or the tool traits)'),
  calls: count.describe('calls measured, one at a time, after one warm-up call'),
  timedOut: count.describe("calls that took longer than the client's attempt timeout"),
  errors: count.describe('calls answered with an error (reported, not judged)'),
  error: z.string().optional().describe('the first error, cut short'),
  p50Ms: ms.optional().describe("from each call's start to its answer, errors included"),
  p95Ms: ms.optional(),
  maxMs: ms.optional(),
});

const loopLag = obj({
  p99Ms: ms.describe('event-loop delay beyond the 10 ms sampling resolution, 99th percentile'),
  maxMs: ms.describe('the longest stall'),
  samples: count.describe('samples taken (about one per 10 ms the loop was free)'),
  cpuWaitShare: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('of the time the loop thread was ready to run, the share it waited for a CPU (Linux only)'),
});

const calibration = obj({
  calls: count.describe('no-fault MCP pings measured before the workload and before any fault window'),
  timedOut: count.describe("pings that took longer than the client's attempt timeout"),
  p50Ms: ms.optional(),
  p95Ms: ms.optional(),
  maxMs: ms.optional(),
  unavailable: z.string().optional().describe('why there was nothing to calibrate with (no margin, no inconclusive)'),
  referenceP95Ms: ms.describe('the no-fault p95 of a quiet machine the margin is measured from'),
  marginMs: ms.describe('added to every time upper bound: 4 x max(0, p95Ms - referenceP95Ms), rounded'),
  tooLoaded: z
    .string()
    .optional()
    .describe("why the machine looked too loaded for the profile's timing: information, never the verdict"),
  probe: calibrationProbe
    .optional()
    .describe("after the idle pings: pings at the workload's own rate or concurrency (does the machine keep up?)"),
  toolCall: calibrationToolCall
    .optional()
    .describe('a read-only workload tool timed after the idle pings: what a tool call costs; reported, not judged'),
  duringRun: obj({
    harness: loopLag.optional().describe("the harness's event loop (the client's process)"),
    server: loopLag.optional().describe("the reference server's event loop (absent when the target cannot tell)"),
  })
    .optional()
    .describe(
      "how the machine held up while the workload ran: the machine's part of the longest stall (maxMs x cpuWaitShare) is added to the machine delay that can make a missed time bound inconclusive",
    ),
});

const verdict = z
  .enum(VERDICTS)
  .describe(
    'pass; fail; inert (a fault window never hit); inconclusive (its only missed thresholds are time bounds the machine delay explains); interrupted',
  );

const profile = obj({
  name: z.string(),
  description: z.string().optional(),
  file: z.string().optional().describe('the profile file (absolute), for faultline replay'),
  profileSha256: z.string().optional().describe('SHA-256 of the profile text when it ran'),
  seed: z.number().int(),
  policy: z.string(),
  verdict,
  metrics,
  thresholds: z.array(threshold),
  calibration: calibration.optional().describe("the start-up calibration and what it meant for the profile's timing"),
  decisionLogSha256: z.string(),
  decisions: count.optional(),
  startedAt: z.string().optional(),
  durationMs: ms.optional(),
  drainMs: ms.optional().describe('how long the run waited for the server to be quiet before reading the ledger'),
  workloadOffsetMs: ms.optional().describe("from the run start to the workload's start; reports subtract it"),
  notes: z.array(z.string()),
  error: z.string().optional(),
  verdictReason: z.string().optional().describe('why the verdict is inert, inconclusive or interrupted'),
  control: z.boolean().optional().describe("a negative control: thresholds came from the profile's controls"),
  pairing: z
    .string()
    .optional()
    .describe('the protocol pairing it ran in (legacy, modern, auto, auto-sdk1), when the run chose one (--protocol)'),
  readBackDuring: obj({
    everyMs: ms,
    samples: count,
    failedSamples: count.describe('samples that could not be read (faults were on): counted, not fatal'),
    keys: z
      .array(
        obj({
          key: z.string(),
          opId: z.string().optional().describe('the op whose unique argument value it is'),
          outcome: z.string().optional().describe("that op's outcome (ok, failed, info): a failed op's key is a ghost"),
          firstSeenMs: z.number().describe('from the workload start'),
          lastSeenMs: z.number(),
          atEnd: z.boolean().describe('false: seen during the run, gone at the final read-back (made, then lost)'),
        }),
      )
      .describe('effect keys seen during the run, in the order they first appeared'),
    vanished: count.describe('keys seen during the run and gone at the end'),
  })
    .optional()
    .describe('read-back probes called during the run (effects.readBack[i].during)'),
  faultsOff: z
    .literal(true)
    .optional()
    .describe('a faults-off control (faultline run --faults off): the profile ran with its faults removed'),
});

const notApplicable = obj({ profile: z.string(), pairing: z.string(), reason: z.string() }).describe(
  'a profile not run in a pairing because its era removed what it tests: not a failure',
);

const matrixCell = obj({
  verdict: z.union([verdict, z.literal('n/a')]),
  reason: z.string().optional(),
  control: z.boolean().optional(),
  numbers: z.record(z.string(), z.number().nullable()).describe('key metrics by name; null = n/a'),
});

const matrix = obj({
  pairings: z.array(obj({ name: z.string(), summary: z.string() })),
  rows: z.array(
    obj({
      profile: z.string(),
      policy: z.string(),
      cells: z.record(z.string(), matrixCell).describe('by pairing name'),
      differs: z.array(z.string()).describe('"verdict" and the key metrics that differ between pairings'),
    }),
  ),
}).describe('a run in several pairings (--protocol auto|matrix): one column per pairing');

const baseline = obj({
  file: z.string(),
  ok: z.boolean(),
  findings: z.array(
    obj({
      profile: z.string(),
      policy: z.string(),
      kind: z.enum(['known-failure', 'new-failure', 'fixed', 'stale', 'regression', 'verdict']),
      subject: z.string(),
      ok: z.boolean(),
      message: z.string(),
    }),
  ),
});

const capacityPoint = obj({
  run: z.string().describe("the run's name in profiles"),
  verdict,
  ops: count,
  okOpsPerSec: z.number().describe('ops that ended ok per second of workload'),
  p50: na(ms, 'no ops'),
  p95: na(ms, 'no ops'),
  p99: na(ms, 'no ops'),
  successRate: na(rate, 'no ops'),
  attemptsPerOp: na(z.number(), 'no ops').describe('retry amplification: mean attempts per op'),
  duplicates: na(count, 'the target gives no way to see effects'),
  ghosts: na(count, 'the target gives no way to see effects'),
  lost: na(count, 'the target gives no way to see effects'),
});

const capacity = obj({
  profile: z.string(),
  mode: z.enum(['concurrency', 'rate']).describe('concurrency: closed loop (ops in flight); rate: open loop (ops/s)'),
  unit: z.string(),
  rule: obj({ p99Ratio: z.number(), successDropPoints: z.number() }),
  ruleText: z.string().describe('the knee rule in words'),
  levels: z.array(
    obj({
      level: z.number(),
      control: capacityPoint.describe('the no-fault control run (same seed and plan, faults taken out)'),
      faulted: capacityPoint,
      breaks: z
        .array(z.string())
        .nullable()
        .describe('why the rule says this level breaks away ([] = it holds); null = n/a (a run without ops)'),
    }),
  ),
  knee: obj({ level: z.number(), reasons: z.array(z.string()) })
    .nullable()
    .describe('null: no level broke away (or none could be compared)'),
  kneeText: z.string(),
  notes: z.array(z.string()).describe('levels whose no-fault control already failed or retried ops (saturated)'),
});

export const runReportSchema = obj({
  schemaVersion: z.literal(2).describe('bumps on breaking changes; 2: n/a metrics are null'),
  faultline: z.string(),
  seed: z.number().int(),
  startedAt: z.string(),
  durationMs: ms,
  verdict,
  profiles: z.array(profile),
  baseline: baseline.optional(),
  capacity: capacity.optional().describe('faultline capacity: the levels side by side and the knee'),
  notApplicable: z.array(notApplicable).optional(),
  matrix: matrix.optional(),
  faultsOff: obj({
    verdict: verdict.describe('pass: every profile failed a threshold without its faults; fail: one did not'),
  })
    .optional()
    .describe('faultline run --faults off: every profile ran with its faults removed (a control, not a real run)'),
  invocation: obj({
    targetCommand: z.string().optional().describe('--target-command'),
    targetUrl: z.string().optional().describe('--target-url'),
    mcpConfig: z.string().optional().describe('--mcp-config, an absolute path'),
    server: z.string().optional().describe('--server'),
    targetEnv: z.array(z.string()).optional().describe('--target-env KEY=VALUE, as given'),
    clientModule: z.string().optional().describe('--client-module, an absolute path'),
    allowNonLoopback: z.literal(true).optional().describe('--allow-non-loopback'),
    cwd: z.string().describe('the directory the run started in (a stdio target is spawned there again on replay)'),
  })
    .optional()
    .describe("the command line's target and client, when given; faultline replay applies them again"),
});

export function reportJsonSchema(): Record<string, unknown> {
  return { title: 'Faultline report.json', ...z.toJSONSchema(runReportSchema, { io: 'output' }) };
}
