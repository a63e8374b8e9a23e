// Watches the initialize request (2025 era) or the server/discover probe (2026-07-28: the version travels in
// `_meta`) on its way out and remembers the protocol version it offered: the SDK always offers its latest, but an
// edge fault (or a proxy) may have rewritten it.
import { ENVELOPE_VERSION_KEY } from '../core/wire.ts';

export interface OfferObserver {
  fetch: typeof fetch;
  offered(): string | undefined;
}

export function offerObserver(inner: typeof fetch): OfferObserver {
  let offered: string | undefined;
  return {
    offered: () => offered,
    // Not async: it only reads the body on the way out, and an async wrapper costs every request a promise more.
    fetch: (input, init) => {
      const body = init?.body;
      if (typeof body === 'string' && (body.includes('"initialize"') || body.includes('"server/discover"'))) {
        try {
          const message = JSON.parse(body) as {
            method?: string;
            params?: { protocolVersion?: unknown; _meta?: Record<string, unknown> };
          };
          const version =
            message.method === 'initialize'
              ? message.params?.protocolVersion
              : message.method === 'server/discover'
                ? message.params?._meta?.[ENVELOPE_VERSION_KEY]
                : undefined;
          if (typeof version === 'string') offered = version;
        } catch {
          // Not JSON: nothing offered that we can read.
        }
      }
      return inner(input, init);
    },
  };
}
