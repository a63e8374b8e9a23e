// faultline validate PROFILE...: check profiles without running them.
import { loadProfile } from '../profile/load.ts';
import { ProfileError } from '../profile/profile-error.ts';
import { largeProfileProblem } from '../profile/size.ts';
import { discoverProfiles } from './discover.ts';
import { EXIT } from './user-error.ts';

export function validateCommand(args: string[]): number {
  let bad = 0;
  for (const file of discoverProfiles(args)) {
    try {
      const { profile, warnings } = loadProfile(file);
      process.stdout.write(`ok ${file}\n`);
      const large = largeProfileProblem(profile);
      for (const w of large ? [...warnings, large] : warnings) process.stdout.write(`warning: ${file}: ${w}\n`);
    } catch (error) {
      if (!(error instanceof ProfileError)) throw error;
      bad++;
      process.stderr.write(`faultline: ${error.message}\n`);
    }
  }
  return bad > 0 ? EXIT.badInput : EXIT.ok;
}
