import { z } from 'zod';
import { DEPENDENCY_PATHS, type Message } from '../../core/dependency-contract.ts';
import { stableHash } from '../../core/stable-hash.ts';
import { Cancelled, DependencyFailure, mayHaveActed } from '../errors.ts';
import { defineTool, idempotencyKey } from './types.ts';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const E164 = /^\+[1-9]\d{7,14}$/;

/** What the notifications API is asked to send: the message's distinguishing arguments. */
function messageArgs(args: { recipient: string; channel: 'email' | 'sms'; message: string }) {
  return { recipient: args.recipient, channel: args.channel, message: args.message };
}

export const sendNotification = defineTool({
  name: 'send_notification',
  title: 'Send an email or SMS',
  description: [
    'Sends one message to one recipient by email or SMS. The message is delivered immediately and cannot be recalled.',
    'Use when: the user asked to notify someone. Do not use for bulk sends or to check delivery. Retrying with the',
    'SAME idempotency_key never sends twice (the server returns the first result); a NEW key sends a new message.',
    'Formats: for channel "email" the recipient is an address like "ana@example.com"; for "sms" an E.164 number',
    'like "+14155550123". message is plain text, at most 1600 characters.',
    'Example: {"recipient":"ana@example.com","channel":"email","message":"Your order shipped.","idempotency_key":"ntf-8d41-0001"}',
  ].join(' '),
  input: z
    .strictObject({
      recipient: z.string().min(3).max(254).describe('Email address or E.164 phone number, matching channel.'),
      channel: z.enum(['email', 'sms']).describe('"email" or "sms".'),
      message: z.string().min(1).max(1600).describe('Plain text body.'),
      idempotency_key: idempotencyKey,
    })
    .superRefine((v, issue) => {
      const ok = v.channel === 'email' ? EMAIL.test(v.recipient) : E164.test(v.recipient);
      if (!ok) {
        const expected =
          v.channel === 'email' ? 'an email address like "ana@example.com"' : 'an E.164 number like "+14155550123"';
        issue.addIssue({
          code: 'custom',
          path: ['recipient'],
          message: `not a valid ${v.channel} recipient`,
          params: { expected },
        });
      }
    }),
  output: z.object({
    message_id: z.string(),
    status: z.literal('sent'),
    channel: z.enum(['email', 'sms']),
    recipient: z.string(),
    idempotency_key: z.string(),
    replayed: z.boolean(),
  }),
  sideEffecting: true,
  idempotencyArg: 'idempotency_key',
  effectArgs: messageArgs,
  async run(args, ctx) {
    const key = args.idempotency_key;
    const toStructured = (m: Message) => ({
      message_id: m.id,
      status: m.status,
      channel: m.channel,
      recipient: m.recipient,
      idempotency_key: key,
    });
    const { result, replayed } = await ctx.runtime.notifications.run(key, stableHash(messageArgs(args)), {
      execute: async () => {
        const { data } = await ctx.call<Message>('notifications', {
          method: 'POST',
          path: DEPENDENCY_PATHS.messages,
          body: { ...messageArgs(args), client_reference: key },
          idempotencyKey: key,
          sideEffecting: true,
        });
        return toStructured(data);
      },
      recover: async () => {
        const { data } = await ctx.call<{ data: Message[] }>('notifications', {
          method: 'GET',
          path: `${DEPENDENCY_PATHS.messages}?client_reference=${encodeURIComponent(key)}`,
          sideEffecting: false,
        });
        return data.data[0] ? toStructured(data.data[0]) : undefined;
      },
      // The message may exist: the call was cut off, or the answer was lost or spoiled on the way back.
      isUncertain: (e) => e instanceof Cancelled || (e instanceof DependencyFailure && mayHaveActed(e)),
    });
    return {
      structured: { ...result, replayed },
      text: `${replayed ? 'Already sent' : 'Sent'} ${args.channel} to ${args.recipient}: ${result.message_id}.`,
    };
  },
});
