// The effect ledger's record: one real side effect that a dependency performed.

export type EffectKind = 'payment.charge' | 'notification.send' | 'report.generate';

export interface Effect {
  /** Order in which the dependency performed it. */
  seq: number;
  /** Epoch ms (see core/clock). */
  atMs: number;
  kind: EffectKind;
  /** The op's trace id forwarded by the server; absent for servers that do not forward it. */
  traceId?: string;
  idempotencyKey?: string;
  /** Identifies the effect by argument values for servers we do not instrument. */
  argsKey?: string;
  details?: Record<string, unknown>;
}
