// The seam where the effects of a server we did not write come in (read-back probes, dependency interception). A
// foreign target sees no effects by itself: with no source attached its effect metrics are n/a, never 0.
import type { Effect } from '../core/ledger.ts';

export interface EffectSource {
  /** Every effect seen so far, attributed to ops by trace id or by the ops' unique argument values. */
  effects(): Promise<Effect[]>;
  /** Before each profile's workload: forget what an earlier run saw. */
  reset?(): Promise<void>;
  /** Set when the last read could not see the effects (a probe failed): they are unknown, not none. */
  readonly failure?: string;
}

/** A target that can take an effect source once the run knows one (foreign stdio and http targets). */
export interface EffectSink {
  attachEffects(source: EffectSource): void;
}

/** The effects part of a foreign target: none to see until a source is attached. */
export class ForeignEffects implements EffectSink {
  private source: EffectSource | undefined;

  attachEffects(source: EffectSource): void {
    this.source = source;
  }

  /** False with no source, or when its last read failed (read the ledger first). */
  get observable(): boolean {
    return this.source !== undefined && this.source.failure === undefined;
  }

  /** Why the effects are unknown, for the report. */
  notes(): string[] {
    return this.source?.failure ? [this.source.failure] : [];
  }

  async ledger(): Promise<Effect[]> {
    return this.source ? this.source.effects() : [];
  }

  async reset(): Promise<void> {
    await this.source?.reset?.();
  }
}
