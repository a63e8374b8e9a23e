// faultline validate PROFILE...: check profiles without running them. A target Faultline did not write (named by a
// target flag or in the profile itself) is started or connected to and its tools/list checked against each
// workload, as faultline run does first: a url that is not up yet fails here as it would fail the run.

import { ProfileError } from '../core/profile-error.ts';
import { isUserFacing } from '../core/user-facing.ts';
import { loadProfile } from '../profile/load.ts';
import { largeProfileProblem } from '../profile/size.ts';
import { checkAgainstTarget } from '../run/target-check.ts';
import { discoverProfiles } from './discover.ts';
import { type TargetFlags, targetFromFlags } from './target-flags.ts';
import { EXIT } from './user-error.ts';

export interface ValidateFlags extends TargetFlags {
  allowNonLoopback?: boolean;
}

export async function validateCommand(args: string[], flags: ValidateFlags = {}): Promise<number> {
  const target = targetFromFlags(flags);
  let bad = 0;
  for (const file of discoverProfiles(args)) {
    try {
      const loaded = loadProfile(file, { target });
      const listed = await checkAgainstTarget(loaded, { allowNonLoopback: flags.allowNonLoopback === true });
      process.stdout.write(
        `ok ${file}${listed ? ` (its ${listed.size} tools listed by the target fit the workload)` : ''}\n`,
      );
      const large = largeProfileProblem(loaded.profile);
      for (const w of large ? [...loaded.warnings, large] : loaded.warnings)
        process.stdout.write(`warning: ${file}: ${w}\n`);
    } catch (error) {
      if (!isUserFacing(error)) throw error;
      bad++;
      // A ProfileError names its file; a target that cannot be reached (TargetConfigError) does not. One line per
      // problem, each with the prefix, so a grep for the file finds them all.
      const where = error instanceof ProfileError ? '' : `${file}: `;
      for (const line of (error as Error).message.split('\n')) process.stderr.write(`faultline: ${where}${line}\n`);
    }
  }
  return bad > 0 ? EXIT.badInput : EXIT.ok;
}
