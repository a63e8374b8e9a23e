// Placeholders in a foreign target's command line, environment, cwd and headers, and in setup and reset hooks:
// `${tmpdir}` is the profile run's own fresh temporary directory, `${env:NAME}` the harness's environment variable.
import { TargetConfigError } from './remote-target.ts';

export interface PlaceholderValues {
  /** The run's temporary directory (created before the target starts, removed after the run). */
  tmpdir: string;
  env: NodeJS.ProcessEnv;
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** `text` with every placeholder replaced; an unknown one or an unset variable is one line naming `where`. */
export function expandPlaceholders(text: string, values: PlaceholderValues, where: string): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === 'tmpdir') return values.tmpdir;
    if (name.startsWith('env:')) {
      const value = values.env[name.slice(4)];
      if (value === undefined) throw new TargetConfigError(`${where}: ${whole}: the environment variable is not set`);
      return value;
    }
    throw new TargetConfigError(`${where}: unknown placeholder ${whole}; expected \${tmpdir} or \${env:NAME}`);
  });
}

/** Every value of a string record expanded (keys are kept). */
export function expandRecord(
  record: Record<string, string>,
  values: PlaceholderValues,
  where: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, expandPlaceholders(value, values, `${where}.${key}`)]),
  );
}

/** Every string inside a JSON value expanded (arrays and objects walked; keys are kept). */
export function expandDeep(value: unknown, values: PlaceholderValues, where: string): unknown {
  if (typeof value === 'string') return expandPlaceholders(value, values, where);
  if (Array.isArray(value)) return value.map((v, i) => expandDeep(v, values, `${where}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandDeep(v, values, `${where}.${k}`)]));
  return value;
}
