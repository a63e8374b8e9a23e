// The effect ledger's record: one real side effect that a dependency performed.
import { stableHash } from './stable-hash.ts';

/** The reference dependencies' effects; 'read-back': one found in a foreign server's state (run/read-back.ts); 'intercepted': a foreign server's outbound request its dependency accepted (targets/interception.ts). */
export type EffectKind = 'payment.charge' | 'notification.send' | 'report.generate' | 'read-back' | 'intercepted';

export interface Effect {
  /** Order in which the dependency performed it. */
  seq: number;
  /** Epoch ms (see core/clock). */
  atMs: number;
  kind: EffectKind;
  /** The op's trace id forwarded by the server; absent for servers that do not forward it. */
  traceId?: string;
  /** The op's attempt that caused it (the attempt header the server forwards), when it sent one. */
  attempt?: number;
  idempotencyKey?: string;
  /** Identifies the effect by argument values for servers we do not instrument. */
  argsKey?: string;
  details?: Record<string, unknown>;
  /**
   * In a history merged from op shards that listened (measure/merge.ts): the shard whose op made it, so the stream
   * that shard listened on is the one that had to announce it.
   */
  shard?: number;
}

/**
 * Stable hash of an effect's distinguishing arguments: the ledger hashes what the dependency received, the
 * workload hashes what each op planned to send (through the tool's `effectArgs`), and reconcile matches the two.
 */
export function argsKey(args: Record<string, unknown>): string {
  return stableHash(args);
}

/** The argsKey of a foreign server's effect identified by `value` (an op's `effects.keys` argument), on both sides. */
export function foreignEffectKey(value: unknown): string {
  return argsKey({ effectKey: typeof value === 'string' ? value : JSON.stringify(value) });
}
