// The effect ledger: every real side effect a dependency performed, in order. Deduplicated replays never reach it.
// In the server child each new effect is also pushed to the harness (the parent's copy is the source of truth), and
// the child keeps none of them (`streamOut`): only the numbering and the last effect's time (for quiescence).
import { epochMs } from '../src/core/clock.ts';
import { argsKey, type Effect, type EffectKind } from '../src/core/ledger.ts';

export { argsKey };

export interface NewEffect {
  kind: EffectKind;
  traceId?: string;
  attempt?: number;
  idempotencyKey?: string;
  /** The distinguishing arguments; hashed into argsKey. */
  args: Record<string, unknown>;
  details?: Record<string, unknown>;
}

export class EffectLedger {
  private effects: Effect[] = [];
  private seq = 0;
  private lastAt: number | undefined;
  /** False once streamed out: entries go to the listeners only. */
  private keeps = true;
  private readonly listeners = new Set<(effect: Effect) => void>();

  record(input: NewEffect): Effect {
    const effect: Effect = {
      seq: ++this.seq,
      atMs: epochMs(),
      kind: input.kind,
      ...(input.traceId !== undefined && { traceId: input.traceId }),
      ...(input.attempt !== undefined && { attempt: input.attempt }),
      ...(input.idempotencyKey !== undefined && { idempotencyKey: input.idempotencyKey }),
      argsKey: argsKey(input.args),
      ...(input.details !== undefined && { details: input.details }),
    };
    if (this.keeps) this.effects.push(effect);
    this.lastAt = effect.atMs;
    for (const listener of this.listeners) listener(effect);
    return effect;
  }

  onEffect(listener: (effect: Effect) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** From now on every entry only goes to the listeners, which keep the record: memory holds nothing per effect. */
  streamOut(): void {
    this.keeps = false;
    this.effects = [];
  }

  list(): Effect[] {
    if (!this.keeps) throw new Error('this ledger streams its entries out: read the copy its listener keeps');
    return this.effects.slice();
  }

  /** When the last effect was recorded (epoch ms); undefined when none was. */
  get lastAtMs(): number | undefined {
    return this.lastAt;
  }

  reset(): void {
    this.effects = [];
    this.seq = 0;
    this.lastAt = undefined;
  }

  /** Restores effects recorded by an earlier process; numbering continues after them. */
  restore(effects: Effect[]): void {
    if (this.keeps) this.effects = effects.slice();
    this.seq = effects.reduce((max, e) => Math.max(max, e.seq), 0);
    this.lastAt = effects.at(-1)?.atMs;
  }
}
