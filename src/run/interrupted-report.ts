// The report of a profile the run was stopped in before it had anything to measure: its set-up was cut short, or
// the stop came between profiles. Verdict interrupted, no ops; the decision log is the seed's empty one.
import { DecisionLog } from '../core/decision-log.ts';
import { buildProfileReport } from '../measure/verdict.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { Recorder } from './recorder.ts';
import type { ProfileResult } from './run-profile.ts';

export function interruptedReport(
  loaded: LoadedProfile,
  seed: number,
  policy: string,
  notRun: readonly string[],
  when: string,
): ProfileResult {
  const history = new Recorder().history([], []);
  const report = buildProfileReport({
    name: loaded.profile.name,
    description: loaded.profile.description,
    file: loaded.file,
    profileSha256: loaded.sha256,
    seed,
    policy,
    history,
    expect: loaded.profile.expect,
    decisionLogSha256: new DecisionLog(seed).sha256(),
    interrupted: true,
    notes: [`the run was stopped ${when}`, ...(notRun.length > 0 ? [notRunNote(notRun)] : [])],
  });
  return { report: { ...report, verdictReason: `the run was stopped ${when}` }, history };
}

/** The profiles after the interrupted one, which never ran. */
export function notRunNote(names: readonly string[]): string {
  return `not run (the run was stopped): ${names.join(', ')}`;
}
