// A metric family computed as the run goes (the k6 way): fed each op's attempts and then the op when the op ends
// (records arrive in end order, not start order), finished once. It keeps only what its result needs, never the
// records themselves.
import type { AttemptRecord, History, OpRecord } from '../core/history.ts';
import type { MetricsOptions } from './metrics-options.ts';

/** What a family may read when it finishes besides what it was fed: the run's frame, not its records. */
export type RunFrame = Omit<History, 'attempts' | 'ops'>;

export interface Accumulator<T> {
  attempt?(a: AttemptRecord): void;
  op?(o: OpRecord): void;
  /** Called once, at the end. */
  result(run: RunFrame, options: MetricsOptions): T;
}
