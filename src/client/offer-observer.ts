// Watches the initialize request on its way out and remembers the protocol version it offered: the SDK always
// offers its latest, but an edge fault (or a proxy) may have rewritten it.
export interface OfferObserver {
  fetch: typeof fetch;
  offered(): string | undefined;
}

export function offerObserver(inner: typeof fetch): OfferObserver {
  let offered: string | undefined;
  return {
    offered: () => offered,
    fetch: async (input, init) => {
      const body = init?.body;
      if (typeof body === 'string' && body.includes('"initialize"')) {
        try {
          const message = JSON.parse(body) as { method?: string; params?: { protocolVersion?: unknown } };
          if (message.method === 'initialize' && typeof message.params?.protocolVersion === 'string') {
            offered = message.params.protocolVersion;
          }
        } catch {
          // Not JSON: nothing offered that we can read.
        }
      }
      return inner(input, init);
    },
  };
}
