// How a faults-off control (`faultline run --faults off`) reads: the profile ran with its faults removed, so at
// least one threshold must fail; every threshold holding means the profile's thresholds do not need its faults.
import type { ProfileReport, RunReport, Verdict } from './run-report.ts';

type Judged = Pick<ProfileReport, 'verdict' | 'error' | 'thresholds'>;

/**
 * The control failed as it should: it ran to the end and a threshold failed without the faults. A missed time bound
 * the machine's delay explains (inconclusive) proves nothing either way: load can push a time over its bound.
 */
export function faultsMatter(p: Judged): boolean {
  if (p.error !== undefined) return false;
  return p.thresholds.some((t) => t.status === 'fail' || t.status === 'na-fail');
}

/**
 * The run's outcome as a faults-off control: pass when every profile's faults mattered; fail when one passed (or
 * broke) without them; inconclusive when a loaded machine left one undecided; interrupted when stopped.
 */
export function faultsOffVerdict(run: Pick<RunReport, 'profiles'>): Verdict {
  const undecided = (p: Judged) => !faultsMatter(p) && p.thresholds.some((t) => t.status === 'inconclusive');
  if (run.profiles.some((p) => p.verdict === 'interrupted')) return 'interrupted';
  if (run.profiles.some((p) => !undecided(p) && !faultsMatter(p))) return 'fail';
  return run.profiles.some(undecided) ? 'inconclusive' : 'pass';
}
