// The plan: what the profile and the seed decide before anything runs. The fault timeline, and the op schedule
// with generated arguments and planned model mistakes. The workload driver consumes `ops`, the timeline driver
// `timeline`; `faultline plan` prints it.
//
// Open model (rate): every op and its start time are known, so they are all drawn here. Closed model
// (concurrency): how many ops fit in the duration depends on how fast the server answers, so `ops` is an
// unbounded sequence by index, each op drawn on first use and kept. Either way op i is the same for a seed
// whatever the timing: its tool is the i-th draw of the workload stream (drawn in index order) and its
// arguments and mistake come from its own child streams. The draws land in the decision log when they are made
// (all of them up front for the open model, op by op for the closed one), so the log holds what the run used.
import { type DecisionSink, RandomStream } from '../core/random.ts';
import { openModelOpCount } from '../profile/open-model.ts';
import type { Profile } from '../profile/schema.ts';
import { buildTimeline, type TimelineEvent } from '../profile/timeline.ts';
import { type OpWindow, planOpWindows } from './op-windows.ts';
import { type PlannedOp, planOp } from './schedule.ts';

export interface Plan {
  seed: number;
  /** Fault windows as on/off events, in ms from the workload's start. */
  timeline: TimelineEvent[];
  /** Fault windows that open and close by op index (op-windows.ts). */
  opWindows: OpWindow[];
  ops: OpSequence;
}

/**
 * The workload's ops by index. The closed model hands each op out once, in index order (the workload driver's
 * workers take the next index in turn), so it forgets an op once handed out: a 100,000-op run keeps no plan of
 * the ops it already ran. An earlier op asked for again (`first`, after the run) is drawn again from a fresh
 * stream, which gives the same op without logging its draws twice.
 */
class OpSequence {
  /** Drawn ops from index `base` on: every op (open model), or those not yet handed out (closed model). */
  private readonly drawn: PlannedOp[] = [];
  private base = 0;

  constructor(
    private readonly profile: Profile,
    private readonly random: RandomStream,
    /** Open model: how many ops the duration holds; undefined for the closed model (unbounded). */
    readonly count: number | undefined,
    /** A fresh workload stream (no decision sink) to draw earlier ops again; absent: keep every op drawn. */
    private readonly redraw?: () => RandomStream,
  ) {
    for (let i = 0; i < (count ?? 0); i++) this.at(i);
  }

  at(index: number): PlannedOp {
    if (this.count !== undefined && index >= this.count)
      throw new RangeError(`op ${index} is past the plan's ${this.count}`);
    if (index < this.base) return this.again(index + 1)[index];
    while (this.base + this.drawn.length <= index)
      this.drawn.push(planOp(this.profile, this.random, this.base + this.drawn.length));
    const op = this.drawn[index - this.base];
    if (this.count === undefined && this.redraw) {
      this.drawn.splice(0, index - this.base + 1);
      this.base = index + 1;
    }
    return op;
  }

  /** The first `n` ops (all of them for the open model when `n` is absent). */
  first(n = this.count ?? 0): PlannedOp[] {
    const total = this.count === undefined ? n : Math.min(n, this.count);
    if (this.count === undefined && this.redraw) return this.again(total);
    return Array.from({ length: total }, (_, i) => this.at(i));
  }

  /** Ops 0..n-1 drawn again on a fresh stream, for ops this sequence has already forgotten. */
  private again(n: number): PlannedOp[] {
    const fresh = new OpSequence(this.profile, (this.redraw as () => RandomStream)(), undefined);
    return Array.from({ length: n }, (_, i) => fresh.at(i));
  }
}

/** The plan of `profile` under `seed`; `onDecision` receives every draw (the run's decision log). */
export function buildPlan(profile: Profile, seed: number, onDecision?: DecisionSink): Plan {
  const workload = new RandomStream(seed, 'workload', onDecision);
  const openCount = profile.workload.rate ? openModelOpCount(profile) : undefined;
  return {
    seed,
    timeline: buildTimeline(profile.faults, profile.duration, profile.workload.ops !== undefined),
    // Op windows need a known number of ops (profile/check.ts): the open model's, or the closed model's `ops`.
    opWindows: planOpWindows(profile.faults, openCount ?? profile.workload.ops ?? Number.POSITIVE_INFINITY),
    ops: new OpSequence(profile, workload, openCount, () => new RandomStream(seed, 'workload')),
  };
}
