// How a faults-off control (`faultline run --faults off`) reads: the profile ran with its faults removed, so at
// least one threshold must fail; every threshold holding means the profile's thresholds do not need its faults.
import type { ProfileReport, RunReport, Verdict } from './run-report.ts';

type Judged = Pick<ProfileReport, 'verdict' | 'error' | 'thresholds'>;

/**
 * The control failed as it should: it ran to the end and a threshold failed without the faults. On a machine too
 * loaded for the profile's timing only a threshold with nothing to measure (n/a: no fault window, no retried op)
 * counts, because load can make a value fail but cannot give it something to measure.
 */
export function faultsMatter(p: Judged): boolean {
  if (p.error !== undefined) return false;
  if (p.verdict === 'fail') return p.thresholds.some((t) => !t.ok);
  return p.verdict === 'inconclusive' && p.thresholds.some((t) => !t.ok && t.na === true);
}

/**
 * The run's outcome as a faults-off control: pass when every profile's faults mattered; fail when one passed (or
 * broke) without them; inconclusive when a loaded machine left one undecided; interrupted when stopped.
 */
export function faultsOffVerdict(run: Pick<RunReport, 'profiles'>): Verdict {
  const undecided = (p: Judged) => p.verdict === 'inconclusive' && !faultsMatter(p);
  if (run.profiles.some((p) => p.verdict === 'interrupted')) return 'interrupted';
  if (run.profiles.some((p) => !undecided(p) && !faultsMatter(p))) return 'fail';
  return run.profiles.some(undecided) ? 'inconclusive' : 'pass';
}
