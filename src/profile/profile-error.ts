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

export class ProfileError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly problem: string,
    readonly line?: number,
  ) {
    super(oneLine(`${file}${line ? `:${line}` : ''}: ${path}: ${problem}`));
    this.name = 'ProfileError';
  }
}
