// The run's metric families as accumulators (measure/accumulator.ts). A new family is one file with its accumulator
// and one line in FAMILIES; computeMetrics reads its result from `finishFeed`. A family that must know what to look
// for before the first op ends (the leak scan's canaries) takes it from the options the feed is made with.
import type { AttemptRecord, FaultWindow, History, OpRecord } from '../core/history.ts';
import { opGroups } from '../core/history-records.ts';
import type { Effect } from '../core/ledger.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';
import { ApplicationCounter } from './client-guards.ts';
import { discoveryMetrics } from './discovery-metrics.ts';
import { EdgeCounter } from './edge-metrics.ts';
import { ErrorCounter } from './errors.ts';
import { faultWindows } from './fault-windows.ts';
import { InputRoundCounter } from './input-rounds.ts';
import { LatencyAccumulator } from './latency.ts';
import { LeakScanner } from './leaks.ts';
import { notificationMetrics } from './notifications.ts';
import type { MetricsOptions } from './options.ts';
import { OutcomeCounter } from './outcomes.ts';
import { EffectReconciler } from './reconcile.ts';
import { RecoveryTracker } from './recovery.ts';
import { ReplayCounter } from './replays.ts';
import { RetryCounter } from './retry.ts';
import { RetryAfterCounter } from './retry-after.ts';
import { SeamCounter } from './server-seam.ts';
import { TaskCancelCounter } from './task-cancels.ts';
import { TaskCounter } from './tasks.ts';

const FAMILIES = {
  outcomes: () => new OutcomeCounter(),
  errors: () => new ErrorCounter(),
  opLatency: () => new LatencyAccumulator('op'),
  attemptLatency: () => new LatencyAccumulator('attempt'),
  retryAfter: () => new RetryAfterCounter(),
  retry: () => new RetryCounter(),
  effects: () => new EffectReconciler(),
  recovery: () => new RecoveryTracker(),
  replays: () => new ReplayCounter(),
  serverSeam: () => new SeamCounter(),
  application: () => new ApplicationCounter(),
  edges: () => new EdgeCounter(),
  inputRounds: () => new InputRoundCounter(),
  // Families that read only the run's frame (windows, discovery probes, listen events, effects): nothing to feed.
  discovery: () => ({ result: discoveryMetrics }),
  notifications: () => ({ result: notificationMetrics }),
  faultWindows: () => ({ result: faultWindows }),
  tasks: () => new TaskCounter(),
  taskCancels: () => new TaskCancelCounter(),
  leaks: (options: MetricsOptions) => new LeakScanner(options.canaries),
} satisfies Record<string, (options: MetricsOptions) => Accumulator<unknown>>;

type Families = typeof FAMILIES;
export type MetricFeed = { [K in keyof Families]: ReturnType<Families[K]> };
export type FeedResults = { [K in keyof Families]: ReturnType<MetricFeed[K]['result']> };

export function newFeed(options: MetricsOptions = {}): MetricFeed {
  return Object.fromEntries(Object.entries(FAMILIES).map(([name, make]) => [name, make(options)])) as MetricFeed;
}

/** The events a family may take as the run goes (accumulator.ts), each to the families that take it. */
const HOOKS = ['attempt', 'op', 'watermark', 'liveEffects', 'fault', 'effect'] as const;
type Takers = { [H in (typeof HOOKS)[number]]: Accumulator<unknown>[] };

/**
 * Each feed's takers, listed once: an op's end reaches only the families that count it, with no list made per op
 * and no look-up of the hook on every family, each of its own shape (a few µs of every call, bench:overhead).
 */
const takersOf = new WeakMap<MetricFeed, Takers>();

function takers(feed: MetricFeed): Takers {
  let listed = takersOf.get(feed);
  if (!listed) {
    const families = Object.values(feed) as Accumulator<unknown>[];
    listed = Object.fromEntries(
      HOOKS.map((hook) => [hook, families.filter((family) => family[hook] !== undefined)]),
    ) as Takers;
    takersOf.set(feed, listed);
  }
  return listed;
}

/** One op as it ends: its attempts in the order recorded, then the op (none: attempts of an op that never ended). */
export function feedOp(feed: MetricFeed, attempts: readonly AttemptRecord[], op: OpRecord | undefined): void {
  const { attempt: attemptTakers, op: opTakers } = takers(feed);
  // Family by family or event by event is the same: a family sees its own events in order, and no other family's.
  for (const a of attempts) for (const family of attemptTakers) family.attempt!(a);
  if (op) for (const family of opTakers) family.op!(op);
}

/** No attempt starting before `ms` will be fed from now on (accumulator.ts). */
export function feedWatermark(feed: MetricFeed, ms: number): void {
  for (const family of takers(feed).watermark) family.watermark!(ms);
}

/** The run's effects are fed as they happen from now on (accumulator.ts `liveEffects`). */
export function feedEffectsLive(feed: MetricFeed): void {
  for (const family of takers(feed).liveEffects) family.liveEffects!();
}

/** A fault window went on (accumulator.ts `fault`). */
export function feedFault(feed: MetricFeed, w: FaultWindow): void {
  for (const family of takers(feed).fault) family.fault!(w);
}

/** One effect as the ledger recorded it. */
export function feedEffect(feed: MetricFeed, e: Effect): void {
  for (const family of takers(feed).effect) family.effect!(e);
}

/** A recorded history fed as if it were happening: each op's attempts, then the op. */
export function replay(history: History, options: MetricsOptions = {}): MetricFeed {
  const feed = newFeed(options);
  for (const group of opGroups(history)) feedOp(feed, group.attempts, group.op);
  return feed;
}

export function finishFeed(feed: MetricFeed, run: RunFrame, options: MetricsOptions = {}): FeedResults {
  const entries = Object.entries(feed) as [string, Accumulator<unknown>][];
  return Object.fromEntries(entries.map(([name, family]) => [name, family.result(run, options)])) as FeedResults;
}
