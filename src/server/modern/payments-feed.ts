// The payments feed on the 2026-07-28 wire: a resource a client can listen to (subscriptions/listen). Every new
// charge is announced as notifications/resources/updated carrying its idempotency key, and reading the resource
// lists every key charged so far, so a client that lost announcements while its stream was down can catch up.
import type { McpServer, ServerEventBus } from '@modelcontextprotocol/server';
import { CHARGE_KEY_META, PAYMENTS_URI } from '../../core/wire.ts';
import type { ServerRuntime } from '../runtime.ts';

/** Announces each new charge on `bus` (every open listen stream that asked for the feed); returns how to stop. */
export function feedCharges(runtime: ServerRuntime, bus: ServerEventBus): () => void {
  return runtime.charges.onCharge((key) =>
    bus.publish({
      kind: 'resource_updated',
      uri: PAYMENTS_URI,
      params: { uri: PAYMENTS_URI, _meta: { [CHARGE_KEY_META]: key } },
    }),
  );
}

export function registerPaymentsFeed(server: McpServer, runtime: ServerRuntime): void {
  server.registerResource(
    'payments',
    PAYMENTS_URI,
    { mimeType: 'application/json', description: 'Idempotency keys of every charge so far, oldest first.' },
    async () => ({
      contents: [
        { uri: PAYMENTS_URI, mimeType: 'application/json', text: JSON.stringify({ keys: runtime.charges.keys() }) },
      ],
    }),
  );
}
