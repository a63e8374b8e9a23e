// Loads a profile: YAML → schema → the checks that need the registries (fault kinds, tools, thresholds).
import { readFileSync } from 'node:fs';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { checkProfile } from './check.ts';
import { type DocPath, formatPath, ProfileError } from './profile-error.ts';
import { type Profile, profileSchema } from './schema.ts';

export interface LoadedProfile {
  file: string;
  profile: Profile;
  warnings: string[];
}

export function loadProfile(file: string): LoadedProfile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProfileError(file, '(file)', code === 'ENOENT' ? 'no such file' : `cannot read (${code})`);
  }
  return parseProfile(file, text);
}

export function parseProfile(file: string, text: string): LoadedProfile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = lines.linePos(e.pos[0]).line;
    throw new ProfileError(file, '(document)', `invalid YAML: ${e.message.split('\n')[0]}`, line);
  }
  const lineOf = (path: DocPath): number | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const fail = (path: DocPath, problem: string): never => {
    throw new ProfileError(file, formatPath(path), problem, lineOf(path));
  };

  const raw = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    fail([], 'expected a mapping with name, description, workload, …');
  const parsed = profileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(issue.path as DocPath, describeIssue(issue));
  }
  const warnings = checkProfile(parsed.data!, fail);
  return { file, profile: parsed.data!, warnings };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_union' && 'errors' in issue && issue.errors.length > 0) {
    return issue.message === 'Invalid input' ? 'expected one of the documented forms' : issue.message;
  }
  return issue.message;
}
