// Your own MCP client under Faultline: a small retry-with-backoff wrapper around the SDK Client, as a team might
// ship it. Faultline hands it transports (newTransport) and calls callTool once per op; it sees every attempt on
// the wire, so the report's retry, recovery and effect metrics judge this wrapper, not a built-in policy.
//
//   faultline run chaos-profiles/network-reset.yaml --client-module examples/own-client/retrying-client.ts
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

interface Context {
  newTransport(): Transport;
  settings: { attemptTimeoutMs: number; maxAttempts: number; backoff: { initialMs: number; maxMs: number } };
}

type CallParams = { name: string; arguments: Record<string, unknown> };

export default function createClient({ newTransport, settings }: Context) {
  let connecting: Promise<Client> | undefined;
  const connect = () => {
    connecting ??= (async () => {
      const client = new Client({ name: 'my-retrying-client', version: '1.0.0' });
      // A lost connection (a crash, a reset link): forget it, the next attempt connects again.
      client.onclose = () => {
        connecting = undefined;
      };
      await client.connect(newTransport());
      return client;
    })().catch((error) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };

  return {
    async callTool(params: CallParams) {
      let lastError: unknown;
      for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
        try {
          const client = await connect();
          // The same arguments on every try: an idempotency key in them makes the retry safe.
          return await client.callTool(params, undefined, { timeout: settings.attemptTimeoutMs });
        } catch (error) {
          lastError = error;
          const old = connecting;
          connecting = undefined;
          old?.then((c) => c.close()).catch(() => {});
          const delay = Math.min(settings.backoff.maxMs, settings.backoff.initialMs * 2 ** (attempt - 1));
          await new Promise((resolve) => setTimeout(resolve, Math.random() * delay));
        }
      }
      throw lastError;
    },
    async close() {
      const client = await connecting?.catch(() => undefined);
      await client?.close();
    },
  };
}
