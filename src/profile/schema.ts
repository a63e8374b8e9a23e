// The chaos profile: what to run, against what, with which faults, and what must hold. Validated with zod;
// `faultline schema` exports it as JSON Schema so editors complete profiles.
import { z } from 'zod';
import { DEFAULT_DEPENDENCY_TIMEOUT_MS, STEADY_STATE_DEFAULTS } from '../core/defaults.ts';
import { durationSchema, positiveDurationSchema, withDurations } from '../core/duration.ts';
import { envVarName } from '../core/env-var-name.ts';
import { PROTOCOL_CHOICES } from '../core/pairing.ts';
import { POLICY_NAMES } from '../core/policy-names.ts';
import type { Seam } from '../faults/kind.ts';
import { faultEntryUnion } from '../faults/registry.ts';
import { targetKind, targetSchema } from '../under-test/kinds/index.ts';
import { WORKLOAD_LIMITS } from './caps.ts';
import { effectsSchema } from './effects-schema.ts';
import { generatorSchema } from './generators.ts';

export type TargetSpec = z.input<typeof targetSchema>;

/** A target whose tools are not known to be the reference server's (its kind's file says which: under-test/kinds/). */
export function listsOwnTools(target: { kind: string; admin?: string }): boolean {
  return targetKind(target.kind)?.listsOwnTools(target) ?? false;
}

/** Target kinds whose tools are the reference server's (checked at load); any other kind lists its own. */
export function isReferenceKind(kind: string): boolean {
  return targetKind(kind)?.referenceTools ?? false;
}

export const clientSchema = z.strictObject(
  withDurations({
    policy: z.enum(POLICY_NAMES).default('resilient'),
    module: z
      .string()
      .min(1)
      .optional()
      .describe(
        "your own client instead of the policy: a module (path relative to the profile) whose default export builds it on the harness's transports (docs/own-client.md)",
      ),
    attemptTimeoutMs: z.number().int().positive().default(2000),
    deadlineMs: z.number().int().positive().default(8000),
    maxAttempts: z.number().int().min(1).max(50).default(5),
    backoff: z
      .strictObject(
        withDurations({
          initialMs: z.number().int().nonnegative().default(50),
          maxMs: z.number().int().positive().default(1000),
        }),
      )
      .default({ initialMs: 50, maxMs: 1000 }),
    /** Circuit breaker per tool (resilient policy): opens on consecutive DEPENDENCY failures. Off by default. */
    breaker: z
      .strictObject(
        withDurations({
          consecutiveFailures: z.number().int().min(1).max(1000).default(5),
          halfOpenAfterMs: z.number().int().positive().default(1000),
        }),
      )
      .optional(),
    /** On an AUTH failure, ask the server to renew its credentials once and retry once (resilient policy). */
    credentialRefresh: z.boolean().default(true),
    /** Context-window guard: results larger than this (bytes of JSON) are re-fetched as a smaller page or cut. */
    resultBudgetBytes: z.number().int().positive().optional(),
  }),
);

const workloadItemSchema = z.strictObject({
  tool: z.string().min(1),
  weight: z.number().positive().default(1),
  args: z.record(z.string(), generatorSchema).default({}),
  sideEffect: z
    .boolean()
    .optional()
    .describe(
      'the tool changes state outside the call, so a failure after it ran is uncertain and its effects are reconciled ' +
        "(default: the reference tools' own traits; another server's tool annotations: not readOnlyHint)",
    ),
  idempotent: z
    .boolean()
    .optional()
    .describe(
      'repeating the call with the same arguments makes no second effect, so a replay after an unknown outcome is ' +
        "safe (default: the tool's idempotentHint annotation)",
    ),
  idempotencyKeyArg: z
    .string()
    .min(1)
    .optional()
    .describe('the argument that carries an idempotency key: the client sets one key per op, the same on each retry'),
  statusTool: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a read-only tool that says whether a key took effect, called with the key in idempotencyKeyArg after an ' +
        'uncertain failure; it answers structuredContent {status: "succeeded" | "not_found"}',
    ),
});

export const MISTAKE_KINDS = [
  'unknown-tool',
  'wrong-type',
  'flattened',
  'out-of-range',
  'wrong-format',
  'garbled',
] as const;

const mistakesSchema = z.strictObject({
  /** Share of ops whose first call carries a mistake (0..1). */
  share: z.number().min(0).max(1),
  kinds: z
    .array(z.enum(MISTAKE_KINDS))
    .min(1)
    .default([...MISTAKE_KINDS]),
  /** Self-corrections allowed per op before giving up. */
  maxCorrections: z.number().int().min(0).max(10).default(2),
});

const workloadSchema = z
  .strictObject({
    /** Open model: ops started per second, whatever the latency. */
    rate: z.number().positive().max(WORKLOAD_LIMITS.rate).optional(),
    /** Closed model: this many ops in flight, each starting when the last ends. */
    concurrency: z.number().int().positive().max(WORKLOAD_LIMITS.concurrency).optional(),
    /**
     * Closed model only: run exactly this many ops, then stop, however long they take (known-answer runs whose
     * counts must not depend on the machine's speed). `duration` then times the fault windows only, and a window
     * without `stop` stays until the last op has ended.
     */
    ops: z.number().int().positive().max(1_000_000).optional(),
    mix: z.array(workloadItemSchema).min(1),
    /** Model-side mistakes: a seeded share of ops start with a wrong call that the corrector must fix. */
    mistakes: mistakesSchema.optional(),
  })
  .refine((w) => (w.rate === undefined) !== (w.concurrency === undefined), {
    message: 'expected exactly one of rate or concurrency',
  })
  .refine((w) => w.ops === undefined || w.concurrency !== undefined, {
    message: '`ops` bounds a closed-model workload: use it with concurrency, not rate',
    path: ['ops'],
  });

/**
 * One fault window: seam, kind, when, and the kind's own parameters (generated from the fault registry). A window is
 * either a time window (`start`, `stop`: ms after the workload starts) or an op window (`fromOp`, `toOp`: op indices
 * on the plan), never both (profile/check.ts); plan/op-windows.ts says how each seam carries an op window.
 */
export interface FaultEntry {
  seam: Seam;
  kind: string;
  /** Time window: ms after the workload starts. */
  start?: number;
  /** Time window: ms after the workload starts; default: the end of the run. */
  stop?: number;
  /** Op window: the first op it applies to (index on the plan). */
  fromOp?: number;
  /** Op window: the last op it applies to (included); default: the plan's last op. */
  toOp?: number;
  /** Op window: only each op's first this-many attempts (seams that scope per request). */
  firstAttempts?: number;
  /** The window may hit nothing without making the verdict inert (default false). */
  mayNotHit?: boolean;
  /** The kind's parameters, parsed (defaults applied). */
  [param: string]: unknown;
}

/** The fields every fault entry has beside its kind's parameters: the window. */
export const WINDOW_FIELDS = ['start', 'stop', 'fromOp', 'toOp', 'firstAttempts', 'mayNotHit'] as const;

const opIndex = z.number().int().nonnegative();

const faultEntrySchema = faultEntryUnion({
  start: durationSchema
    .optional()
    .describe('time window: when it opens, after the workload starts (ms, or "500ms", "2s"); or use fromOp'),
  stop: durationSchema.optional().describe('time window: when it closes (default: the end of the run)'),
  fromOp: opIndex
    .optional()
    .describe(
      'op window: the first op it applies to, by index on the plan (0-based); counts then do not depend on the ' +
        "machine's speed (docs/fault-windows.md)",
    ),
  toOp: opIndex.optional().describe("op window: the last op it applies to, included (default: the plan's last op)"),
  firstAttempts: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("op window on a dependency or edge fault: only each op's first this-many attempts"),
  mayNotHit: z
    .boolean()
    .default(false)
    .describe(
      'the window may hit nothing (e.g. a probabilistic fault on a short window); without it a window whose seam ' +
        'counted no hit makes the verdict inert',
    ),
}) as unknown as z.ZodType<FaultEntry, Record<string, unknown>>;

/** How the run ends: it waits until the server is quiet before it reads the ledger (run/drain.ts). */
const drainSchema = z.strictObject({
  settleMs: durationSchema
    .default(200)
    .describe('quiet time required once no tool handler runs: no effect, no handler start or end for this long (ms)'),
  limitMs: positiveDurationSchema
    .default(10_000)
    .describe('longest the drain may take; past it the run did not settle and the verdict is fail (ms)'),
});

const steadyStateSchema = z.strictObject(
  withDurations({
    windowMs: z.number().int().positive().default(STEADY_STATE_DEFAULTS.windowMs),
    minOps: z.number().int().positive().default(STEADY_STATE_DEFAULTS.minOps),
    level: z.number().min(0).max(1).default(STEADY_STATE_DEFAULTS.level),
  }),
);

/** A program run by a setup or reset hook (no shell); `${tmpdir}` and `${env:NAME}` work in args, env and cwd. */
const commandHook = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(envVarName, z.string()).default({}),
  cwd: z.string().min(1).optional(),
  timeoutMs: positiveDurationSchema.default(30_000).describe('past this the hook failed (ms)'),
});

/** An MCP tool call made by a reset hook on the connected server (e.g. a delete-everything tool). */
const callHook = z.strictObject({
  call: z.string().min(1).describe('the tool to call'),
  args: z.record(z.string(), z.unknown()).default({}),
  timeoutMs: positiveDurationSchema.default(10_000).describe('past this the hook failed (ms)'),
});

export type Hook = z.infer<typeof commandHook> | z.infer<typeof callHook>;

/**
 * The longest profile name: it becomes part of file names (the run's temporary directory
 * `faultline-check-NAME-XXXXXX`, a replay's `--out/NAME`), and a file name is at most 255 bytes.
 */
const MAX_PROFILE_NAME_CHARS = 100;

export const profileSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a lowercase name such as "dependency-5xx"')
    .max(MAX_PROFILE_NAME_CHARS, `expected a name of at most ${MAX_PROFILE_NAME_CHARS} characters`),
  /** What the profile shows, for people (optional). */
  description: z.string().min(1).optional(),
  seed: z.number().int().nonnegative().default(1),
  /** How long the workload issues ops. */
  duration: positiveDurationSchema.default(8000),
  target: targetSchema.default({
    kind: 'reference',
    eventStore: true,
    dependencyTimeoutMs: DEFAULT_DEPENDENCY_TIMEOUT_MS,
    leaky: false,
  }),
  client: clientSchema.default(clientSchema.parse({})),
  protocol: z
    .enum(PROTOCOL_CHOICES)
    .default('legacy')
    .describe(
      'protocol pairing: legacy (SDK 1.32 client and server, 2025-11-25), modern (SDK 2.4 client pinned to ' +
        '2026-07-28, SDK 2.4 server), auto (SDK 2.4 client negotiating, and SDK 1.32 client, against a dual-era ' +
        'server), matrix (all of them); --protocol overrides it',
    ),
  setup: z
    .array(commandHook)
    .optional()
    .describe(
      'commands run before the target starts, each profile run and replay (e.g. seed the run directory, tmpdir)',
    ),
  reset: z
    .array(z.union([commandHook, callHook]))
    .optional()
    .describe(
      "commands or tool calls run once connected, before the workload: the server's state back to a known start",
    ),
  workload: workloadSchema,
  listen: z
    .strictObject({
      resources: z.array(z.string().min(1)).min(1).describe('resource URIs to listen to, e.g. faultline://payments'),
    })
    .optional()
    .describe(
      'a subscriptions/listen stream the client keeps open during the workload (2026-07-28 wire only): what it ' +
        'was told, lost and caught up is counted (notifications_* metrics)',
    ),
  faults: z.array(faultEntrySchema).default([]),
  steadyState: steadyStateSchema.default({ ...STEADY_STATE_DEFAULTS }),
  /** After the workload and the fault timeline: wait for the server's handlers to finish, then a quiet period. */
  drain: drainSchema.default({ settleMs: 200, limitMs: 10_000 }),
  /** How a foreign target's effects are seen (read-back probes); without it its effect metrics are n/a. */
  effects: effectsSchema.optional(),
  expect: z.array(z.string()).default([]),
  /** Thresholds that replace `expect` when the run's policy is overridden (negative controls), by policy. */
  controls: z.partialRecord(z.enum(POLICY_NAMES), z.array(z.string())).default({}),
});

export type Profile = z.infer<typeof profileSchema>;
