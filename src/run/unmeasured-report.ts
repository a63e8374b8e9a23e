// The report of a profile that has nothing to measure: the run was stopped in it before it had (its set-up was cut
// short, or the stop came between profiles: verdict interrupted), or an error ended it (verdict fail, the error
// named). No ops; the decision log is the seed's empty one.
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
  const why = `the run was stopped ${when}`;
  const notes = [why, ...(notRun.length > 0 ? [notRunNote(notRun)] : [])];
  return nothingMeasured(loaded, seed, policy, { interrupted: true, notes }, why);
}

/**
 * The report of a profile an error ended that no input of the user's explains (a server child that never became
 * ready, Faultline's own fault): verdict fail with the error named, no threshold judged on what it never measured.
 */
export function couldNotRunReport(loaded: LoadedProfile, seed: number, policy: string, error: unknown): ProfileResult {
  const message = error instanceof Error ? error.message : String(error);
  const why = `the profile could not run: ${message.split('\n', 1)[0]}`;
  const { report, history } = nothingMeasured(loaded, seed, policy, { error: message, notes: [] }, why);
  return { report: { ...report, thresholds: [] }, history };
}

function nothingMeasured(
  loaded: LoadedProfile,
  seed: number,
  policy: string,
  how: { interrupted?: true; error?: string; notes: string[] },
  why: string,
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
    ...how,
  });
  return { report: { ...report, verdictReason: why }, history };
}

/** The profiles after the interrupted one, which never ran. */
export function notRunNote(names: readonly string[]): string {
  return `not run (the run was stopped): ${names.join(', ')}`;
}
