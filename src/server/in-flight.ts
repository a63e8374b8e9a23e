// The tool handlers a server process is still running, so a harness can tell when it is quiet. A handler counts
// from before it starts until its promise settles, whether its client cancelled it, timed out or went away (the
// SDK drops a cancelled call's answer, not the handler); work a tool goes on with after answering must run inside
// `track` too, so its late effects fall within the tracked lifetime.

import type { Quiescence } from '../control/ops/quiescence.ts';
import { epochMs } from '../core/clock.ts';

export class InFlightHandlers {
  private running = 0;
  private lastChangeMs = epochMs();

  get inFlight(): number {
    return this.running;
  }

  /** Runs `work` as one tracked handler. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    this.lastChangeMs = epochMs();
    try {
      return await work();
    } finally {
      this.running--;
      this.lastChangeMs = epochMs();
    }
  }

  quiescence(lastEffectAtMs: number | undefined): Quiescence {
    const now = epochMs();
    return {
      inFlight: this.running,
      idleMs: Math.max(0, now - Math.max(this.lastChangeMs, lastEffectAtMs ?? 0)),
      lastEffectAtMs: lastEffectAtMs ?? null,
    };
  }
}
