// A minimal path over JSON values, for read-back probes and effect keys (no library: nothing installed offers one).
// Syntax: property names joined by dots, `[N]` for the Nth array element (from 0), `[*]` for every element:
//   entities[*].name     every entity's name          entities[0].name   the first entity's name
//   content              a top-level property         (empty)            the value itself
// A step that does not apply (a missing property, an index past the end, [*] on a non-array) selects nothing.
export type PathStep = { prop: string } | { index: number } | { every: true };

const STEP = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+|\*)\])/;

/** The steps of `text`; a syntax error names the offset and what was expected. */
export function parsePath(text: string): PathStep[] {
  const steps: PathStep[] = [];
  let rest = text.trim();
  let at = 0;
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (!m || (steps.length === 0 && rest.startsWith('.'))) {
      throw new Error(`path "${text}": unexpected "${rest.slice(0, 12)}" at ${at}; expected name, .name, [N] or [*]`);
    }
    if (m[1] !== undefined) steps.push({ prop: m[1] });
    else if (m[2] === '*') steps.push({ every: true });
    else steps.push({ index: Number(m[2]) });
    at += m[0].length;
    rest = rest.slice(m[0].length);
  }
  return steps;
}

/** Every value the path selects in `value`, in document order. */
export function selectPath(value: unknown, steps: readonly PathStep[]): unknown[] {
  let current: unknown[] = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('every' in step) {
        if (Array.isArray(v)) next.push(...v);
      } else if ('index' in step) {
        if (Array.isArray(v) && step.index < v.length) next.push(v[step.index]);
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, step.prop)) {
        next.push((v as Record<string, unknown>)[step.prop]);
      }
    }
    current = next;
  }
  return current;
}
