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
import type { Profile } from '../profile/schema.ts';
import { openModelOpCount, type PlannedOp, planOp } from './schedule.ts';
import { buildTimeline, type TimelineEvent } from './timeline.ts';

export interface Plan {
  seed: number;
  /** Fault windows as on/off events, in ms from the workload's start. */
  timeline: TimelineEvent[];
  ops: OpSequence;
}

/** The workload's ops by index. */
class OpSequence {
  private readonly drawn: PlannedOp[] = [];

  constructor(
    private readonly profile: Profile,
    private readonly random: RandomStream,
    /** Open model: how many ops the duration holds; undefined for the closed model (unbounded). */
    readonly count: number | undefined,
  ) {
    for (let i = 0; i < (count ?? 0); i++) this.at(i);
  }

  at(index: number): PlannedOp {
    if (this.count !== undefined && index >= this.count)
      throw new RangeError(`op ${index} is past the plan's ${this.count}`);
    while (this.drawn.length <= index) this.drawn.push(planOp(this.profile, this.random, this.drawn.length));
    return this.drawn[index];
  }

  /** The first `n` ops (all of them for the open model when `n` is absent). */
  first(n = this.count ?? 0): PlannedOp[] {
    const total = this.count === undefined ? n : Math.min(n, this.count);
    return Array.from({ length: total }, (_, i) => this.at(i));
  }
}

/** The plan of `profile` under `seed`; `onDecision` receives every draw (the run's decision log). */
export function buildPlan(profile: Profile, seed: number, onDecision?: DecisionSink): Plan {
  const workload = new RandomStream(seed, 'workload', onDecision);
  return {
    seed,
    timeline: buildTimeline(profile.faults, profile.duration, profile.workload.ops !== undefined),
    ops: new OpSequence(profile, workload, profile.workload.rate ? openModelOpCount(profile) : undefined),
  };
}
