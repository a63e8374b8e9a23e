// defineProfile: a chaos profile written in code, checked exactly as a YAML profile file is.
import type { z } from 'zod';
import { ProfileError } from '../core/profile-error.ts';
import { type LoadedProfile, parseProfile } from '../profile/load.ts';
import type { profileSchema } from '../profile/schema.ts';

/** A profile as written (YAML or code): the fields of profile.schema.json, defaults optional. */
export type ProfileInput = z.input<typeof profileSchema>;

/** A checked profile, defaults filled in: what runProfile and startEnvironment take. */
export type DefinedProfile = LoadedProfile;

/**
 * Checks a profile written in code with the same loader as `faultline validate` (schema, fault kinds, tools,
 * thresholds, timeout layering), so it fails with the same messages as the YAML file would.
 *
 * @param input - the profile, typed: the same fields as a YAML profile.
 * @param source - what error messages and the report call it (default `defineProfile(<name>)`).
 * @returns the checked profile, with defaults filled in and the loader's warnings.
 * @throws ProfileError - one line per problem (every one found): source, the path inside the profile, what was expected.
 *
 * @example
 * ```ts
 * const profile = defineProfile({
 *   name: 'dependency-5xx',
 *   description: 'payments answers 503 for two seconds',
 *   duration: '6s',
 *   workload: { rate: 20, mix: [{ tool: 'create_payment' }] },
 *   faults: [{ seam: 'dependency', kind: 'status', dependency: 'payments', status: 503, start: '2s', stop: '4s' }],
 *   expect: ['duplicate_effects == 0'],
 * });
 * ```
 */
export function defineProfile(input: ProfileInput, source = `defineProfile(${String(input?.name)})`): DefinedProfile {
  // JSON is YAML: the loader's own path, from the parse on. Its line numbers would point into this JSON text,
  // which nobody wrote, so they are dropped.
  try {
    return parseProfile(source, JSON.stringify(input));
  } catch (error) {
    if (error instanceof ProfileError) throw error.unlocated();
    throw error;
  }
}
