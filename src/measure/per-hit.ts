// Behaviour counts as ratios of what the fault did: resumptions per stream the server closed, timed-out attempts
// per result it dropped, lookups per delayed charge. An absolute count ("at least 20 resumptions") depends on how
// many calls a machine got into the window; a ratio of the fault's own hits does not. n/a (null) when the windows
// hit nothing or a seam cannot count its hits.
import type { Metrics, PerFaultHit, PerHitCount } from './types.ts';

/** The counts that have a per-hit ratio, by their name in `perFaultHit` (and, snake_cased + `_per_hit`, metrics). */
export const PER_HIT_COUNTS = {
  sseResumptions: (m: Metrics) => m.sseResumptions ?? 0,
  resultsResumed: (m: Metrics) => m.delivery?.resumed ?? 0,
  resultsLost: (m: Metrics) => m.delivery?.lost ?? 0,
  attemptsTimedOut: (m: Metrics) => m.attemptsTimedOut ?? 0,
  reexecutionsAvoided: (m: Metrics) => m.reexecutionsAvoided ?? 0,
  protoErrors: (m: Metrics) => m.protoErrors ?? 0,
} as const satisfies Record<PerHitCount, (m: Metrics) => number>;

export function perFaultHit(m: Metrics): PerFaultHit {
  const counted = m.faultWindows.length > 0 && m.faultWindows.every((w) => w.hits !== null);
  const hits = counted ? m.faultWindows.reduce((n, w) => n + (w.hits as number), 0) : null;
  const ratios = Object.fromEntries(
    Object.entries(PER_HIT_COUNTS).map(([name, count]) => [
      name,
      hits ? Math.round((count(m) / hits) * 1000) / 1000 : null,
    ]),
  ) as Record<PerHitCount, number | null>;
  return { hits, ratios };
}

/** Why a per-hit ratio has nothing to measure. */
export function perHitNaReason(m: Metrics): string {
  if (m.faultWindows.length === 0) return 'no fault window';
  const uncounted = m.faultWindows.find((w) => w.hits === null);
  if (uncounted) return `the ${uncounted.seam} seam did not count the hits of ${uncounted.fault}`;
  return 'the fault windows hit nothing';
}
