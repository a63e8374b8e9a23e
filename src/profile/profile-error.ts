// A user mistake in a profile: reported as one line naming the file, where in it, and what was expected.

export type DocPath = (string | number)[];

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(document)';
}

export class ProfileError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly problem: string,
    readonly line?: number,
  ) {
    super(`${file}${line ? `:${line}` : ''}: ${path}: ${problem}`);
  }
}
