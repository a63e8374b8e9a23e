import { z } from 'zod';
import { type Charge, DEPENDENCY_PATHS } from '../../core/dependency-contract.ts';
import { getPaymentStatus } from './get-payment-status.ts';
import { defineTool, idempotencyKey } from './types.ts';

const chargeOutput = z.object({
  charge_id: z.string(),
  status: z.literal('succeeded'),
  customer_id: z.string(),
  amount_cents: z.number().int(),
  currency: z.string(),
  idempotency_key: z.string(),
  replayed: z.boolean(),
});

/** What the payments API is asked to charge: the charge's distinguishing arguments. */
function chargeArgs(args: { customer_id: string; amount_cents: number; currency: string }) {
  return { customer_id: args.customer_id, amount_cents: args.amount_cents, currency: args.currency };
}

export const createPayment = defineTool({
  name: 'create_payment',
  title: 'Charge a customer',
  description: [
    "Charges a customer's saved payment method. This moves real money: call it once per purchase the user asked for.",
    'Use when: the user confirmed a payment of a known amount. Do not use to check whether a payment happened (use',
    'get_payment_status) or to retry blindly after a timeout: if a call timed out or failed with details.uncertain,',
    'call get_payment_status with the same idempotency_key first, and retry with that SAME key only if it says not_found.',
    'Formats: customer_id like "cus_4711"; amount_cents is an integer in the smallest unit (12.50 USD = 1250);',
    'currency is an ISO 4217 code in upper case, e.g. "USD", "EUR".',
    'Example: {"customer_id":"cus_4711","amount_cents":1250,"currency":"USD","idempotency_key":"pay-2f9c1e7a-0001"}',
  ].join(' '),
  input: z.strictObject({
    customer_id: z.string().min(1).max(64).describe('The customer to charge, e.g. "cus_4711".'),
    amount_cents: z.number().int().positive().max(100_000_000).describe('Amount in minor units, e.g. 1250 for 12.50.'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as "USD"')
      .describe('ISO 4217 currency code, upper case, e.g. "USD".'),
    idempotency_key: idempotencyKey,
  }),
  output: chargeOutput,
  sideEffecting: true,
  idempotencyArg: 'idempotency_key',
  statusLookup: { tool: getPaymentStatus.name, keyArg: 'idempotency_key' },
  effectArgs: chargeArgs,
  async run(args, ctx) {
    const key = args.idempotency_key;
    const inflight = ctx.runtime.inflightPayments;
    inflight.set(key, (inflight.get(key) ?? 0) + 1);
    try {
      const { data: charge, replayed } = await ctx.call<Charge>('payments', {
        method: 'POST',
        path: DEPENDENCY_PATHS.charges,
        body: chargeArgs(args),
        idempotencyKey: key,
        sideEffecting: true,
      });
      if (!replayed) ctx.runtime.charges.announce(key);
      const structured = {
        charge_id: charge.id,
        status: charge.status,
        customer_id: charge.customer_id,
        amount_cents: charge.amount_cents,
        currency: charge.currency,
        idempotency_key: key,
        replayed,
      };
      return {
        structured,
        text: `Charged ${charge.amount_cents} ${charge.currency} to ${charge.customer_id}: ${charge.id}.`,
      };
    } finally {
      const n = (inflight.get(key) ?? 1) - 1;
      if (n <= 0) inflight.delete(key);
      else inflight.set(key, n);
    }
  },
});
