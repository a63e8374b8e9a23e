// The idempotent create of payment-style APIs (payments, reports), as real payment APIs honour Idempotency-Key: the
// new record is stored under the key; the same key with the same arguments replays it (200, `Idempotent-Replayed:
// true`, no second effect); the same key with other arguments is a 422. Without a key every call creates.
import type { EffectKind } from '../../src/core/ledger.ts';
import { argsKey } from '../ledger.ts';
import { type ApiContext, apiError } from './types.ts';

/** The fields every idempotently created record carries. */
export interface Created {
  id: string;
  idempotency_key?: string;
  args_key: string;
  created_ms: number;
}

export interface CreateSpec<T extends Created> {
  table: string;
  /** New ids are `<idPrefix>_000001`, `_000002`, … */
  idPrefix: string;
  effect: EffectKind;
  /** The distinguishing arguments: compared on replay and hashed into the ledger's argsKey. */
  args: Record<string, unknown>;
  build(created: Created): T;
  details(record: T): Record<string, unknown>;
}

export function idempotentCreate<T extends Created>(ctx: ApiContext, spec: CreateSpec<T>): Response {
  const key = argsKey(spec.args);
  const existing = ctx.idempotencyKey ? ctx.state.get<T>(spec.table, ctx.idempotencyKey) : undefined;
  if (existing) {
    if (existing.args_key !== key) {
      return apiError(
        422,
        'idempotency_key_reused',
        'Keys for idempotent requests can only be used with the same parameters',
      );
    }
    return Response.json(existing, { headers: { 'idempotent-replayed': 'true' } });
  }
  const id = `${spec.idPrefix}_${String(ctx.state.size(spec.table) + 1).padStart(6, '0')}`;
  const record = spec.build({
    id,
    ...(ctx.idempotencyKey && { idempotency_key: ctx.idempotencyKey }),
    args_key: key,
    created_ms: Date.now(),
  });
  ctx.state.put(spec.table, ctx.idempotencyKey ?? id, record);
  ctx.ledger.record({
    kind: spec.effect,
    traceId: ctx.traceId,
    attempt: ctx.attempt,
    idempotencyKey: ctx.idempotencyKey,
    args: spec.args,
    details: spec.details(record),
  });
  return Response.json(record, { status: 201 });
}
