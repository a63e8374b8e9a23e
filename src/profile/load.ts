// Loads a profile: YAML → schema → the checks that need the registries (fault kinds, tools, thresholds) → the
// limits a run can honour and the tool arguments the reference server accepts. Any bad input is a ProfileError
// listing every problem found.
import { createHash } from 'node:crypto';
import { type DocPath, formatPath, type Problem, ProfileError } from '../core/profile-error.ts';
import { checkProfile } from './check.ts';
import { describeIssue } from './describe-issue.ts';
import { knownKeys } from './known-keys.ts';
import { checkLimits } from './limits.ts';
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
  /**
   * The MCP link runs through a Toxiproxy proxy even with no fault on it: a control derived from a profile with faults
   * on the link (its faults-off control, a capacity level's no-fault run) runs on the same link as that profile.
   */
  proxiedLink?: true;
}

export interface LoadOptions {
  /** Replaces the profile's target (--target-command, --target-url, --mcp-config): checked as if written there. */
  target?: TargetSpec;
}

export function loadProfile(file: string, options: LoadOptions = {}): LoadedProfile {
  return parseProfile(file, readUserFile(file), options);
}

/**
 * Every problem in the file is reported at once: all the schema finds, or, once the schema holds, all the checks
 * beyond it find (they need the parsed profile). YAML that does not parse stops before either.
 */
export function parseProfile(file: string, text: string, options: LoadOptions = {}): LoadedProfile {
  const source = readYaml(file, text);
  const problems: Problem[] = [];
  const report = (path: DocPath, problem: string, key?: string) => {
    problems.push({
      path: formatPath(key === undefined ? path : [...path, key]),
      problem,
      ...source.locate(path, key),
    });
  };
  const stopIfAny = () => {
    if (problems.length > 0) throw ProfileError.of(file, problems.sort(byPlace));
  };

  const written = source.value;
  if (written === null || typeof written !== 'object' || Array.isArray(written))
    report([], 'expected a mapping with name, description, workload, …');
  stopIfAny();
  const raw = options.target ? { ...(written as object), target: options.target } : written;
  const parsed = profileSchema.safeParse(raw);
  if (!parsed.success) {
    const knownKeysAt = (path: DocPath) => knownKeys(raw, path);
    for (const issue of parsed.error.issues)
      for (const d of describeIssue(issue, raw, knownKeysAt)) report(d.path, d.problem, d.key);
  }
  stopIfAny();
  const profile = parsed.data!;
  const warnings = checkProfile(profile, report);
  checkLimits(profile, report);
  checkToolArgs(profile, report);
  stopIfAny();
  return { file, profile, warnings, sha256: createHash('sha256').update(text).digest('hex') };
}

/** In reading order: by line, then column; problems without a place last. */
function byPlace(a: Problem, b: Problem): number {
  return (a.line ?? Infinity) - (b.line ?? Infinity) || (a.col ?? 0) - (b.col ?? 0);
}
