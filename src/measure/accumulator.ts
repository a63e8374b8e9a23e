// A metric family computed as the run goes (the k6 way): fed each op's attempts and then the op when the op ends
// (records arrive in end order, not start order), finished once. It keeps only what its result needs, never the
// records themselves.
import type { AttemptRecord, FaultWindow, History, OpRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import type { MetricsOptions } from './options.ts';

/**
 * What a family may read when it finishes besides what it was fed: the run's frame, not its records (only
 * reconciliation reads them again, one op at a time, for effects it could not attribute as they came: reconcile.ts).
 */
export type RunFrame = Omit<History, 'attempts' | 'ops'>;

export interface Accumulator<T> {
  attempt?(a: AttemptRecord): void;
  op?(o: OpRecord): void;
  /**
   * The low watermark: no attempt that starts (or ends) before `ms` will be fed from now on, so what waited for an
   * earlier record to arrive is final. Rises only; never called on a replay, where everything is final at the end.
   */
  watermark?(ms: number): void;
  /**
   * Every effect of the run will be fed as it happens (`effect`), before any op ends: the ledger read at the end
   * holds the same ones. Never called on a replay or for a target whose effects are read only at the end.
   */
  liveEffects?(): void;
  /**
   * A fault window went on (its `offMs` is set on the same object when it goes off). A live run announces every
   * window of its frame here before the watermark passes its onset; a replay announces none.
   */
  fault?(w: FaultWindow): void;
  effect?(e: Effect): void;
  /** Called once, at the end. */
  result(run: RunFrame, options: MetricsOptions): T;
}
