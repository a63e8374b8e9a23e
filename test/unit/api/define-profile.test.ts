// defineProfile goes through the YAML loader: the same profile in code and in YAML gives the same checked profile,
// and the same mistake gives the same path and problem.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { defineProfile, type ProfileInput } from '../../../src/api/define-profile.ts';
import { discoverProfiles } from '../../../src/cli/discover.ts';
import { ProfileError } from '../../../src/core/profile-error.ts';
import { loadProfile, parseProfile } from '../../../src/profile/load.ts';

function errorOf(fn: () => unknown): ProfileError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProfileError) return error;
    throw error;
  }
  throw new Error('expected a ProfileError');
}

describe('defineProfile', () => {
  it.each(discoverProfiles([]))('checks %s to the same profile as the YAML loader', (file) => {
    const input = parse(readFileSync(file, 'utf8')) as ProfileInput;
    const defined = defineProfile(input, file);
    const loaded = loadProfile(file);
    expect(defined.profile).toEqual(loaded.profile);
    expect(defined.warnings).toEqual(loaded.warnings);
  });

  it.each([
    ['a bad name', { name: 'Bad Name' }],
    ['an unknown key', { retries: 3 }],
    ['an unknown fault kind', { faults: [{ seam: 'dependency', kind: 'explode', start: '1s' }] }],
    ['a threshold on an unknown metric', { expect: ['dupes == 0'] }],
  ])('fails on %s with the YAML loader’s path and problem, without a line', (_, change) => {
    const input = {
      name: 'probe',
      description: 'a profile with one mistake',
      workload: { rate: 5, mix: [{ tool: 'search_documents', args: { query: 'invoice' } }] },
      ...change,
    } as ProfileInput;
    const fromCode = errorOf(() => defineProfile(input, 'probe.ts'));
    const fromYaml = errorOf(() => parseProfile('probe.yaml', stringify(input)));
    expect({ path: fromCode.path, problem: fromCode.problem }).toEqual({
      path: fromYaml.path,
      problem: fromYaml.problem,
    });
    expect(fromCode.message).toBe(`probe.ts: ${fromYaml.path}: ${fromYaml.problem}`);
  });
});
