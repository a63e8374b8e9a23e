// A user mistake in a profile: reported as one line naming the file, where in it, and what was expected.
// Whatever the profile holds, the line quotes at most a short excerpt of it.
export type DocPath = (string | number)[];

/** The longest piece of the input an error line quotes. */
export const EXCERPT_CHARS = 40;

/** A value from the input as it appears in an error line: quoted, escaped to one line, cut with an ellipsis. */
export function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  const cut = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  return JSON.stringify(cut);
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = String(part);
      if (IDENTIFIER.test(key) && key.length <= EXCERPT_CHARS) out += out ? `.${key}` : key;
      else out += `[${excerpt(key)}]`;
    }
  }
  return out || '(document)';
}

/** Any text on one line: line breaks and other control characters become spaces. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to remove them
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** One problem in a profile: where (its path, and its line and column when the text has them) and what is wrong. */
export interface Problem {
  path: string;
  problem: string;
  line?: number;
  col?: number;
}

/** The most problems one error lists; the rest are counted ("and 3 more"). */
export const MAX_PROBLEMS_SHOWN = 20;

/**
 * Every problem found in one file, each on its own line as `file:line:col: path: problem`. The fields name the
 * first one (most files have one problem).
 */
export class ProfileError extends Error {
  readonly userFacing = true;
  readonly problems: readonly Problem[];
  readonly path: string;
  readonly problem: string;
  readonly line?: number;
  readonly col?: number;

  constructor(
    readonly file: string,
    path: string,
    problem: string,
    line?: number,
    col?: number,
  ) {
    super();
    this.name = 'ProfileError';
    this.problems = [{ path, problem, line, col }];
    this.path = path;
    this.problem = problem;
    this.line = line;
    this.col = col;
    this.message = describeProblems(file, this.problems);
  }

  /** One error for all of a file's problems (at least one). */
  static of(file: string, problems: readonly Problem[]): ProfileError {
    const [first] = problems;
    const error = new ProfileError(file, first.path, first.problem, first.line, first.col);
    (error as { problems: readonly Problem[] }).problems = problems;
    error.message = describeProblems(file, problems);
    return error;
  }

  /** The same problems without line and column (text nobody wrote, e.g. a profile given as an object). */
  unlocated(): ProfileError {
    return ProfileError.of(
      this.file,
      this.problems.map(({ path, problem }) => ({ path, problem })),
    );
  }
}

function describeProblems(file: string, problems: readonly Problem[]): string {
  const lines = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => {
    const where = p.line ? `:${p.line}${p.col ? `:${p.col}` : ''}` : '';
    return oneLine(`${file}${where}: ${p.path}: ${p.problem}`);
  });
  const more = problems.length - MAX_PROBLEMS_SHOWN;
  if (more > 0) lines.push(oneLine(`${file}: and ${more} more problem${more === 1 ? '' : 's'}`));
  return lines.join('\n');
}
