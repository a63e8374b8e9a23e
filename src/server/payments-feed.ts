// The payments feed: a resource a 2026-07-28 client can listen to (subscriptions/listen). Every new charge is
// announced as notifications/resources/updated carrying its idempotency key, and reading the resource lists every
// key charged so far, so a client that lost announcements while its stream was down can catch up by one read.
import type { McpServer } from '@modelcontextprotocol/server';
import { CHARGE_KEY_META } from '../core/wire.ts';
import type { ServerRuntime } from './runtime.ts';

export const PAYMENTS_URI = 'faultline://payments';

/** Announces a new charge to every open listen stream that asked for the feed. */
export function announceCharge(runtime: ServerRuntime, key: string): void {
  runtime.chargesAnnounced.push(key);
  runtime.changes.publish({
    kind: 'resource_updated',
    uri: PAYMENTS_URI,
    params: { uri: PAYMENTS_URI, _meta: { [CHARGE_KEY_META]: key } },
  });
}

export function registerPaymentsFeed(server: McpServer, runtime: ServerRuntime): void {
  server.registerResource(
    'payments',
    PAYMENTS_URI,
    { mimeType: 'application/json', description: 'Idempotency keys of every charge so far, oldest first.' },
    async () => ({
      contents: [
        { uri: PAYMENTS_URI, mimeType: 'application/json', text: JSON.stringify({ keys: runtime.chargesAnnounced }) },
      ],
    }),
  );
}
