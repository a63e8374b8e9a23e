// Payments API. Charges are idempotent by Idempotency-Key (see idempotent-create.ts) and can be looked up by it.
import { type Charge, DEPENDENCY_PATHS } from '../../src/core/dependency-contract.ts';
import { ChargeTable } from './charge-table.ts';
import { idempotentCreate } from './idempotent-create.ts';
import { type ApiContext, apiError, defineApi, get, post, readJson } from './types.ts';

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
  const amountCents = amount as number;
  return idempotentCreate<Charge>(ctx, {
    table: TABLE,
    idPrefix: 'ch',
    effect: 'payment.charge',
    args: { customer_id: customer, amount_cents: amountCents, currency },
    build: ({ id, ...created }) => ({
      id,
      customer_id: customer,
      amount_cents: amountCents,
      currency,
      status: 'succeeded',
      ...created,
    }),
    details: (charge) => ({ chargeId: charge.id, amountCents: charge.amount_cents, currency }),
  });
}

function lookupCharge(request: Request, ctx: ApiContext): Response {
  const key = new URL(request.url).searchParams.get('idempotency_key');
  if (!key) return apiError(400, 'invalid_request', 'idempotency_key is required');
  const charge = ctx.state.get<Charge>(TABLE, key);
  return charge ? Response.json(charge) : apiError(404, 'resource_missing', 'No charge for this idempotency key');
}

export const paymentsApi = defineApi(
  'payments',
  [post(DEPENDENCY_PATHS.charges, createCharge), get(DEPENDENCY_PATHS.charges, lookupCharge)],
  { [TABLE]: () => new ChargeTable() },
);
