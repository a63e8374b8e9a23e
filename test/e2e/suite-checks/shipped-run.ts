// A shipped profile's run in the default suite, as a single run of it would return it (its report and recorded
// history). The suite runs every profile with its own seed and policy, so a check of a profile's resilient run reads
// the suite's run instead of running the profile again (default-suite.test.ts registers the checks of this folder;
// each area's test file keeps its controls and variants).
import type { ProfileResult } from '../../../src/run/run-profile.ts';

/** The run of `name` in `pairing` (legacy, unless the profile's own protocol choice runs it elsewhere). */
export type ShippedRun = (name: string, pairing?: string) => ProfileResult;
