// Zod issues to the taxonomy's fieldErrors: a path, a message, and what was expected, so a model can fix its
// arguments in one go.
import type { z } from 'zod';
import type { FieldError } from '../core/taxonomy.ts';

function expectedOf(issue: z.core.$ZodIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'too_small':
      return `${issue.origin === 'string' ? 'length ' : ''}${issue.inclusive === false ? '>' : '>='} ${issue.minimum}`;
    case 'too_big':
      return `${issue.origin === 'string' ? 'length ' : ''}${issue.inclusive === false ? '<' : '<='} ${issue.maximum}`;
    case 'invalid_value':
      return issue.values.map((v) => JSON.stringify(v)).join(' | ');
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? `match ${issue.pattern}` : issue.format;
    case 'not_multiple_of':
      return `a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return 'no such field';
    case 'custom':
      return typeof issue.params?.expected === 'string' ? issue.params.expected : undefined;
    default:
      return undefined;
  }
}

export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const expected = expectedOf(issue);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ path: [...issue.path, key].join('.'), message: 'unknown field', expected });
      continue;
    }
    out.push({ path: issue.path.join('.') || '(arguments)', message: issue.message, ...(expected && { expected }) });
  }
  return out;
}
