// What a negotiating (SDK 2.4) client did about `server/discover`: probes, failed probes, probes sent again
// after a failed one, the slowest probe, and connects that settled on the 2025 era against a server that speaks
// 2026-07-28 (a wrong fallback). Absent when no connect probed (then every such metric is n/a).
import { MODERN_VERSION } from '../core/pairing.ts';
import type { RunFrame } from './accumulator.ts';

export interface DiscoveryMetrics {
  discoveryProbes: number;
  discoveryFailedProbes: number;
  /** Probes sent after the previous probe failed (the client tried discovery again). */
  discoveryRetries: number;
  discoveryMsMax: number;
  /** Connects that ended on a 2025 version while the server speaks 2026-07-28; null when that is unknown. */
  wrongFallbacks: number | null;
}

export function discoveryMetrics(run: RunFrame): Partial<DiscoveryMetrics> {
  const connects = run.discovery ?? [];
  const probes = connects.flatMap((c) => c.probes).sort((a, b) => a.atMs - b.atMs);
  if (probes.length === 0) return {};
  const failed = (i: number) => probes[i].outcome !== 'ok';
  return {
    discoveryProbes: probes.length,
    discoveryFailedProbes: probes.filter((_, i) => failed(i)).length,
    discoveryRetries: probes.filter((_, i) => i > 0 && failed(i - 1)).length,
    discoveryMsMax: Math.max(...probes.map((p) => p.ms)),
    wrongFallbacks:
      run.serverSpeaksModern === undefined
        ? null
        : run.serverSpeaksModern
          ? connects.filter((c) => c.negotiated !== undefined && c.negotiated !== MODERN_VERSION).length
          : 0,
  };
}
