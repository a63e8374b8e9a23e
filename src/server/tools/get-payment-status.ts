import { z } from 'zod';
import { type Charge, DEPENDENCY_PATHS } from '../../core/dependency-contract.ts';
import { DependencyFailure } from '../errors.ts';
import { defineTool, idempotencyKey } from './types.ts';

export const getPaymentStatus = defineTool({
  name: 'get_payment_status',
  title: 'Look up a payment by idempotency key',
  description: [
    'Reports whether the payment made with an idempotency_key exists. Read-only and safe to call any number of times.',
    'Use when: a create_payment call timed out, was cut off, or failed with details.uncertain, BEFORE retrying it.',
    'status is "succeeded" (the charge exists: do NOT pay again), "processing" (a create_payment with this key is',
    'still running: check again shortly) or "not_found" (no charge: retrying create_payment with the SAME key is safe).',
    'Do not use to list payments or to look up by customer. Example: {"idempotency_key":"pay-2f9c1e7a-0001"}',
  ].join(' '),
  input: z.strictObject({ idempotency_key: idempotencyKey }),
  output: z.object({
    idempotency_key: z.string(),
    status: z.enum(['succeeded', 'processing', 'not_found']),
    charge_id: z.string().optional(),
    customer_id: z.string().optional(),
    amount_cents: z.number().int().optional(),
    currency: z.string().optional(),
  }),
  sideEffecting: false,
  async run(args, ctx) {
    const key = args.idempotency_key;
    try {
      const { data: charge } = await ctx.call<Charge>('payments', {
        method: 'GET',
        path: `${DEPENDENCY_PATHS.charges}?idempotency_key=${encodeURIComponent(key)}`,
        sideEffecting: false,
      });
      const structured = {
        idempotency_key: key,
        status: 'succeeded' as const,
        charge_id: charge.id,
        customer_id: charge.customer_id,
        amount_cents: charge.amount_cents,
        currency: charge.currency,
      };
      return { structured, text: `Payment ${key}: succeeded (${charge.id}).` };
    } catch (error) {
      if (!(error instanceof DependencyFailure && error.info.status === 404)) throw error;
      const status = ctx.runtime.inflightPayments.has(key) ? ('processing' as const) : ('not_found' as const);
      return { structured: { idempotency_key: key, status }, text: `Payment ${key}: ${status}.` };
    }
  },
});
