// One clock for the whole run. Every process reports epoch milliseconds with sub-millisecond resolution
// (timeOrigin + now), so events from the server child and the harness land on one timeline.
import { performance } from 'node:perf_hooks';

export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
