// Watches the SDK 2.4 client's `server/discover` probes as the client receives their answers (outside the edge
// rules): when each was sent, how long it took, and how it ended. A bare 400 (no JSON-RPC error in the body) is
// no evidence of a 2025-era server, yet the SDK falls back on it (auto) or gives up (pinned): the resilient
// client refuses that fallback and probes again later (AmbiguousDiscovery).
import { epochMs } from '../core/clock.ts';
import type { DiscoveryProbe } from '../core/history.ts';

export interface DiscoveryTap {
  fetch: typeof fetch;
  probes(): DiscoveryProbe[];
}

/** A connect that fell back to the 2025 era (or gave up) on a bare 400 to its probe: worth another probe. */
export class AmbiguousDiscovery extends Error {
  constructor(readonly outcome: string) {
    super(`server/discover answered a 400 without a JSON-RPC error (no evidence of a 2025-era server): ${outcome}`);
    this.name = 'AmbiguousDiscovery';
  }
}

export function discoveryTap(inner: typeof fetch): DiscoveryTap {
  const probes: DiscoveryProbe[] = [];
  return {
    probes: () => probes,
    fetch: async (input, init) => {
      const body = init?.body;
      if (typeof body !== 'string' || !body.includes('"server/discover"')) return inner(input, init);
      const probe: DiscoveryProbe = { atMs: epochMs(), ms: 0, outcome: 'network-error' };
      probes.push(probe);
      try {
        const response = await inner(input, init);
        probe.status = response.status;
        probe.outcome = response.ok
          ? 'ok'
          : response.status === 400 && !(await carriesRpcError(response))
            ? 'bare-400'
            : 'http-error';
        return response;
      } finally {
        probe.ms = Math.round(epochMs() - probe.atMs);
      }
    },
  };
}

async function carriesRpcError(response: Response): Promise<boolean> {
  try {
    const parsed = JSON.parse(await response.clone().text()) as { error?: { code?: unknown } };
    return typeof parsed?.error?.code === 'number';
  } catch {
    return false;
  }
}
