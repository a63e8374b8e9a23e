// Payments API. Honours Idempotency-Key the way real payment APIs do: same key and same parameters replay the
// stored charge (no second effect, `Idempotent-Replayed: true`); same key with different parameters is rejected
// with 422; a charge can be looked up by its idempotency key.
import { HttpResponse } from 'msw';
import { argsKey } from '../ledger.ts';
import { type ApiContext, apiError, DEPENDENCY_URLS, type DependencyApi, readJson } from './types.ts';

export interface Charge {
  id: string;
  customer_id: string;
  amount_cents: number;
  currency: string;
  status: 'succeeded';
  idempotency_key?: string;
  args_key: string;
  created_ms: number;
}

const TABLE = 'payments';

async function createCharge(request: Request, ctx: ApiContext): Promise<Response> {
  const body = await readJson(request);
  const customer = body?.customer_id;
  const amount = body?.amount_cents;
  const currency = body?.currency;
  if (typeof customer !== 'string' || !Number.isInteger(amount) || (amount as number) <= 0) {
    return apiError(400, 'invalid_request', 'customer_id and a positive integer amount_cents are required');
  }
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    return apiError(400, 'invalid_request', 'currency must be an ISO 4217 code');
  }
  if (customer.startsWith('cus_unknown')) return apiError(404, 'resource_missing', 'No such customer');
  const args = { customer_id: customer, amount_cents: amount, currency };
  const key = argsKey(args);
  if (ctx.idempotencyKey) {
    const existing = ctx.state.get<Charge>(TABLE, ctx.idempotencyKey);
    if (existing) {
      if (existing.args_key !== key) {
        return apiError(
          422,
          'idempotency_key_reused',
          'Keys for idempotent requests can only be used with the same parameters',
        );
      }
      return HttpResponse.json(existing, { headers: { 'idempotent-replayed': 'true' } });
    }
  }
  const charge: Charge = {
    id: `ch_${String(ctx.state.values(TABLE).length + 1).padStart(6, '0')}`,
    customer_id: customer,
    amount_cents: amount as number,
    currency,
    status: 'succeeded',
    ...(ctx.idempotencyKey && { idempotency_key: ctx.idempotencyKey }),
    args_key: key,
    created_ms: Date.now(),
  };
  ctx.state.put(TABLE, ctx.idempotencyKey ?? charge.id, charge);
  ctx.ledger.record({
    kind: 'payment.charge',
    traceId: ctx.traceId,
    idempotencyKey: ctx.idempotencyKey,
    args,
    details: { chargeId: charge.id, amountCents: charge.amount_cents, currency },
  });
  return HttpResponse.json(charge, { status: 201 });
}

function lookupCharge(url: URL, ctx: ApiContext): Response {
  const key = url.searchParams.get('idempotency_key');
  if (!key) return apiError(400, 'invalid_request', 'idempotency_key is required');
  const charge = ctx.state.get<Charge>(TABLE, key);
  return charge ? HttpResponse.json(charge) : apiError(404, 'resource_missing', 'No charge for this idempotency key');
}

export const paymentsApi: DependencyApi = {
  name: 'payments',
  baseUrl: DEPENDENCY_URLS.payments,
  async resolve(request, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/v1/charges' && request.method === 'POST') return createCharge(request, ctx);
    if (url.pathname === '/v1/charges' && request.method === 'GET') return lookupCharge(url, ctx);
    return apiError(404, 'not_found', 'Unknown endpoint');
  },
};
