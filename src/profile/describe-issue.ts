// A schema issue in a person's words: what was expected, what was found, and for a misspelt name the known one
// closest to it. zod's own wording ("Invalid input: expected number, received string") is replaced; a message the
// schema wrote itself ("expected a duration such as ...") is kept and told what it found.
import type { z } from 'zod';
import { didYouMean } from '../core/did-you-mean.ts';
import { type DocPath, excerpt } from '../core/profile-error.ts';

export interface Described {
  path: DocPath;
  /** The written key the problem is about (an unknown key): the error points at it. */
  key?: string;
  problem: string;
}

/** zod's default messages start so; anything else the schema wrote itself. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized)/;

const NOUNS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a text',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
};

export function describeIssue(
  issue: z.core.$ZodIssue,
  written: unknown,
  knownKeysAt: (path: DocPath) => string[],
): Described[] {
  const path = issue.path as DocPath;
  const value = valueAt(written, path);
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(path);
    return issue.keys.map((key) => ({ path, key, problem: `unknown key ${excerpt(key)}${didYouMean(key, known)}` }));
  }
  return [{ path, problem: problemOf(issue, value) }];
}

function problemOf(issue: z.core.$ZodIssue, value: unknown): string {
  const found = `found ${describeValue(value)}`;
  if (!ZOD_WORDING.test(issue.message)) {
    const leaf = value === undefined || value === null || typeof value !== 'object';
    return leaf && issue.message.startsWith('expected') && !/\b(found|got)\b/.test(issue.message)
      ? `${issue.message}; ${found}`
      : issue.message;
  }
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined
        ? `missing; expected ${NOUNS[issue.expected] ?? issue.expected}`
        : `expected ${NOUNS[issue.expected] ?? issue.expected}, ${found}`;
    case 'too_small':
    case 'too_big':
      return `expected ${bound(issue)}, ${found}`;
    case 'invalid_value': {
      const names = issue.values.map((v) => String(v));
      return `expected one of: ${names.join(', ')}; ${found}${typeof value === 'string' ? didYouMean(value, names) : ''}`;
    }
    case 'invalid_format':
      return `expected ${issue.format === 'regex' ? 'a text of the documented form' : `a ${issue.format}`}, ${found}`;
    case 'invalid_union':
      return `expected one of the documented forms, ${found}`;
    default:
      return `${issue.message}, ${found}`;
  }
}

function bound(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  const word = small ? (issue.inclusive ? 'at least' : 'above') : issue.inclusive ? 'at most' : 'below';
  if (issue.origin === 'array' || issue.origin === 'set') return `${word} ${limit} item${limit === 1 ? '' : 's'}`;
  if (issue.origin === 'string') return `${word} ${limit} character${limit === 1 ? '' : 's'}`;
  return `a number ${word} ${limit}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return `the text ${excerpt(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return excerpt(String(value)).slice(1, -1);
}

function valueAt(written: unknown, path: DocPath): unknown {
  let value = written;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}
