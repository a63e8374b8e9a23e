// A payment that needs the user's confirmation first (2026-07-28 multi-round-trip requests): the first round
// answers input_required with an elicitation and a request state bound to the call's arguments; the retried round
// that carries the accepted confirmation and that state charges, as create_payment does (same ledger effect, same
// idempotency key, same status lookup). Served on the 2026-07-28 wire only: 2025-11-25 has no input_required.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_REQUEST_STATE_TTL_MS } from '../../core/defaults.ts';
import { NeedsInput, toolFailure } from '../errors.ts';
import { createPayment } from './create-payment.ts';
import { getPaymentStatus } from './get-payment-status.ts';
import { defineTool } from './types.ts';

/** The accepted content the client must send back for the `confirm` request. */
const confirmation = z.object({ confirm: z.boolean() });

// The state round-trips through the client, so it is signed (the spec's MUST): a tampered state is refused. It
// carries when it was issued, under the signature, so a round that comes back after the runtime's TTL is refused
// as expired (the user took too long, or the round was held on the way).
const secret = randomBytes(32);
const mac = (args: Record<string, unknown>, issuedMs: number) =>
  createHmac('sha256', secret)
    .update(`${issuedMs}.${JSON.stringify(args)}`)
    .digest('base64url');
const sign = (args: Record<string, unknown>, issuedMs = Date.now()) => `${issuedMs}.${mac(args, issuedMs)}`;

/** What a returned state says: signed for these arguments and how old, or not signed by this server for them. */
function readState(state: string | undefined, args: Record<string, unknown>): { ageMs: number } | undefined {
  const [issued, got] = state?.split('.') ?? [];
  const issuedMs = Number(issued);
  if (got === undefined || !Number.isSafeInteger(issuedMs)) return undefined;
  const want = Buffer.from(mac(args, issuedMs));
  const given = Buffer.from(got);
  return given.length === want.length && timingSafeEqual(given, want) ? { ageMs: Date.now() - issuedMs } : undefined;
}

export const transferFunds = defineTool({
  ...createPayment,
  name: 'transfer_funds',
  title: 'Charge a customer after the user confirms',
  description: [
    'Charges a customer like create_payment, but asks the user to confirm first: the first call answers',
    'input_required with a confirmation request; the client retries with the accepted confirmation and the',
    'requestState it got. Use when the user has not confirmed the amount yet. A lost or timed-out call: look the',
    'idempotency_key up with get_payment_status first, and retry with the SAME key only if it says not_found.',
    'Example: {"customer_id":"cus_4711","amount_cents":1250,"currency":"USD","idempotency_key":"pay-2f9c1e7a-0001"}',
  ].join(' '),
  statusLookup: { tool: getPaymentStatus.name, keyArg: 'idempotency_key' },
  async run(args, ctx) {
    const accepted = ctx.input?.accepted('confirm');
    if (accepted === undefined) {
      throw new NeedsInput({
        resultType: 'input_required',
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: `Charge ${args.amount_cents} ${args.currency} to ${args.customer_id}?`,
              requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
            },
          },
        },
        requestState: sign(args),
      });
    }
    // Both refusals are retryable: nothing was charged, and the call started again gets a fresh state.
    const state = readState(ctx.input?.state, args);
    if (state === undefined)
      throw toolFailure(
        'VALIDATION.REQUEST_STATE',
        'The requestState does not match this call: start the call again.',
        {
          retryable: true,
        },
      );
    if (state.ageMs > (ctx.runtime.options.requestStateTtlMs ?? DEFAULT_REQUEST_STATE_TTL_MS))
      throw toolFailure('VALIDATION.REQUEST_STATE_EXPIRED', 'The requestState has expired: start the call again.', {
        retryable: true,
      });
    if (confirmation.safeParse(accepted).data?.confirm !== true) {
      throw toolFailure('VALIDATION.NOT_CONFIRMED', 'The user did not confirm the transfer; nothing was charged.');
    }
    return createPayment.run(args, ctx);
  },
});
