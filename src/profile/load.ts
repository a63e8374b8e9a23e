// Loads a profile: YAML → schema → the checks that need the registries (fault kinds, tools, thresholds) → the
// limits a run can honour and the tool arguments the reference server accepts. Any bad input is a ProfileError.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { checkProfile } from './check.ts';
import { checkLimits } from './limits.ts';
import { type DocPath, excerpt, formatPath, ProfileError } from './profile-error.ts';
import { type Profile, profileSchema, type TargetSpec } from './schema.ts';
import { checkToolArgs } from './tool-args.ts';
import { readUserFile } from './user-file.ts';
import { readYaml } from './yaml-source.ts';

export interface LoadedProfile {
  file: string;
  profile: Profile;
  warnings: string[];
  /** SHA-256 of the file's text, so a replay can tell whether the profile changed since the run. */
  sha256: string;
}

export interface LoadOptions {
  /** Replaces the profile's target (--target-command, --target-url, --mcp-config): checked as if written there. */
  target?: TargetSpec;
}

export function loadProfile(file: string, options: LoadOptions = {}): LoadedProfile {
  return parseProfile(file, readUserFile(file), options);
}

export function parseProfile(file: string, text: string, options: LoadOptions = {}): LoadedProfile {
  const source = readYaml(file, text);
  const fail = (path: DocPath, problem: string): never => {
    throw new ProfileError(file, formatPath(path), problem, source.lineOf(path));
  };

  const written = source.value;
  if (written === null || typeof written !== 'object' || Array.isArray(written))
    fail([], 'expected a mapping with name, description, workload, …');
  const raw = options.target ? { ...(written as object), target: options.target } : written;
  const parsed = profileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(issue.path as DocPath, describeIssue(issue));
  }
  const profile = parsed.data!;
  const warnings = checkProfile(profile, fail);
  checkLimits(profile, fail);
  checkToolArgs(profile, fail);
  return { file, profile, warnings, sha256: createHash('sha256').update(text).digest('hex') };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map(excerpt).join(', ')}`;
  if (issue.code === 'invalid_union' && 'errors' in issue && issue.errors.length > 0) {
    return issue.message === 'Invalid input' ? 'expected one of the documented forms' : issue.message;
  }
  return issue.message;
}
