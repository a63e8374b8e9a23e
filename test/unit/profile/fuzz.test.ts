// Property: whatever is done to a shipped profile, the loader either accepts it (and then the result holds the
// invariants a run relies on) or throws a ProfileError whose message is one line naming the file, the line when
// it can be located, and the path, and quotes no more than a short excerpt of the input. Never another exception.
// A fixed seed keeps CI reproducible (FAULTLINE_FUZZ_SEED to explore others); fast-check prints the seed and the
// shrunk counterexample on failure. The developer's lane runs 200 cases (10-25 ms each on 2 cores); .ci/run
// runs 1000 with the same seed (FAULTLINE_FUZZ_RUNS=1000).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { MAX_DURATION_MS } from '../../../src/core/duration.ts';
import { EXCERPT_CHARS, MAX_PROBLEMS_SHOWN, ProfileError } from '../../../src/core/profile-error.ts';
import { METRICS, metricRange } from '../../../src/measure/metric-table.ts';
import { parseThreshold } from '../../../src/measure/thresholds.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import type { Profile } from '../../../src/profile/schema.ts';
import { REPO } from '../../helpers/cli.ts';

const RUNS = Number(process.env.FAULTLINE_FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FAULTLINE_FUZZ_SEED ?? 14_2025);

const DIR = join(REPO, 'chaos-profiles');
const SHIPPED = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ file: `chaos-profiles/${f}`, value: parseYaml(readFileSync(join(DIR, f), 'utf8')) as unknown }));

// ---- mutations of the value (then written back as YAML) ----

type Path = (string | number)[];

/** Every path in the value, each node once (a shared or cyclic node is not entered again). */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = [], seen = new Set<object>()): Path[] {
  if (value !== null && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    for (const [k, v] of Object.entries(value)) {
      const path = [...prefix, Array.isArray(value) ? Number(k) : k];
      out.push(path);
      pathsOf(v, path, out, seen);
    }
  }
  return out;
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> | undefined {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    node = node?.[key] as Record<string | number, unknown>;
    if (node === null || typeof node !== 'object') return undefined;
  }
  return node;
}

const EXTREME_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -1e-9,
  1e-300,
  1e308,
  -1e308,
  1e15,
  2 ** 31,
  2 ** 53 + 2,
  86_400_001,
  99_999_999,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];
const NANISH_STRINGS = [
  'NaN',
  '.nan',
  'Infinity',
  '.inf',
  '-.inf',
  '1e999',
  '1e308',
  '99999999m',
  '1e308s',
  '-5s',
  '0s',
  '0ms',
  '5 s',
  '5sec',
  '1.5.5s',
  '0x1F',
  '0o17',
  '1_000',
  '',
  ' ',
  'null',
  '~',
  'yes',
  'no',
  `${'9'.repeat(400)}ms`,
];
const YAML_CHARS = 'abc:{}[]-#&*!|>\'"\n\t %@`,?<=0123456789.'.split('');

const garbage = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', minLength: EXCERPT_CHARS + 1, maxLength: 300 }),
  fc.string({ unit: fc.constantFrom(...YAML_CHARS), maxLength: 80 }),
);

const replacement = fc.oneof(
  fc.constantFrom(...EXTREME_NUMBERS),
  fc.constantFrom(...NANISH_STRINGS),
  garbage,
  fc.constantFrom([], {}, true, false, null),
  fc.jsonValue({ maxDepth: 3 }),
);

type ValueMutation =
  | { kind: 'replace'; at: number; with: unknown }
  | { kind: 'scale'; at: number; by: number }
  | { kind: 'delete'; at: number }
  | { kind: 'add-key'; at: number; key: string; with: unknown }
  | { kind: 'wrap'; at: number; depth: number; inArray: boolean }
  | { kind: 'reverse'; at: number }
  | { kind: 'share'; at: number; to: number };

const valueMutation: fc.Arbitrary<ValueMutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), with: replacement }),
  fc.record({ kind: fc.constant('scale' as const), at: fc.nat(), by: fc.constantFrom(-1, 0, 1e-6, 1e6, 1e12, 1.5) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('add-key' as const),
    at: fc.nat(),
    key: fc.oneof(garbage, fc.constantFrom('__proto__', 'constructor', 'retries', '<<', 'toString')),
    with: replacement,
  }),
  fc.record({
    kind: fc.constant('wrap' as const),
    at: fc.nat(),
    depth: fc.integer({ min: 1, max: 120 }),
    inArray: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('reverse' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('share' as const), at: fc.nat(), to: fc.nat() }),
);

function applyValue(root: unknown, m: ValueMutation): unknown {
  const all = pathsOf(root);
  if (all.length === 0) return root;
  const path = all[m.at % all.length];
  const parent = parentOf(root, path);
  if (!parent) return root;
  const key = path[path.length - 1];
  const old = parent[key];
  switch (m.kind) {
    case 'replace':
      parent[key] = m.with;
      break;
    case 'scale':
      if (typeof old === 'number') parent[key] = old * m.by;
      break;
    case 'delete':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case 'add-key':
      if (old !== null && typeof old === 'object' && !Array.isArray(old)) {
        Object.defineProperty(old, m.key, { value: m.with, enumerable: true, configurable: true, writable: true });
      } else parent[key] = { [m.key]: m.with };
      break;
    case 'wrap': {
      let wrapped = old;
      for (let i = 0; i < m.depth; i++) wrapped = m.inArray ? [wrapped] : { object: wrapped };
      parent[key] = wrapped;
      break;
    }
    case 'reverse':
      if (Array.isArray(old)) parent[key] = [...old].reverse();
      break;
    case 'share': {
      // The same object at two places: stringify writes an anchor and an alias (or a cycle, if one holds the other).
      const target = all[m.to % all.length];
      const targetParent = parentOf(root, target);
      if (targetParent) targetParent[target[target.length - 1]] = old;
      break;
    }
  }
  return root;
}

// ---- mutations of the text ----

const LAUGHS = [
  'a: &a [x, x, x, x, x, x, x, x]',
  ...'bcdefg'.split('').map((c, i) => `${c}: &${c} [${Array(8).fill(`*${'abcdefg'[i]}`).join(', ')}]`),
].join('\n');

const TAGS = [
  '!!str',
  '!!int',
  '!!float',
  '!!bool',
  '!!null',
  '!!binary',
  '!!set',
  '!!map',
  '!!seq',
  '!!omap',
  '!foo',
  '!<tag:yaml.org,2002:str>',
  '!!timestamp',
  '!',
];

type TextMutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'duplicate-line'; at: number }
  | { kind: 'tag'; at: number; tag: string }
  | { kind: 'anchor-alias'; at: number; to: number; name: string }
  | { kind: 'undefined-alias'; at: number; name: string }
  | { kind: 'merge'; at: number; value: string }
  | { kind: 'laughs' }
  | { kind: 'deep-flow'; at: number; depth: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'multi-document'; text: string };

const anchorName = fc.oneof(
  fc.constantFrom('a', 'base', 'x'),
  fc.string({ unit: fc.constantFrom(...'abcxyz09_-'.split('')), minLength: 1, maxLength: 120 }),
);

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('tag' as const),
    at: fc.nat(),
    tag: fc.oneof(
      fc.constantFrom(...TAGS),
      fc.string({ unit: 'grapheme-ascii', maxLength: 100 }).map((s) => `!${s.replace(/\s/g, '')}`),
    ),
  }),
  fc.record({ kind: fc.constant('anchor-alias' as const), at: fc.nat(), to: fc.nat(), name: anchorName }),
  fc.record({ kind: fc.constant('undefined-alias' as const), at: fc.nat(), name: anchorName }),
  fc.record({
    kind: fc.constant('merge' as const),
    at: fc.nat(),
    value: fc.constantFrom('*a', '*nope', '3', '{ extra: 1 }', '[*a, *a]', '{}', 'null', '[1, 2]'),
  }),
  fc.record({ kind: fc.constant('laughs' as const) }),
  fc.record({ kind: fc.constant('deep-flow' as const), at: fc.nat(), depth: fc.integer({ min: 1, max: 300 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(
      garbage,
      fc.constantFrom('\uFEFF', '\0', '\t', '---', '...', '%YAML 1.1', '? ', ': ', '- ', '|', '>-'),
    ),
  }),
  fc.record({
    kind: fc.constant('multi-document' as const),
    text: fc.constantFrom('---\nname: b\n', '...\n', '---\n'),
  }),
);

/** Lines with a `key: value` pair: [line index, offset of the value]. */
function valueLines(lines: string[]): [number, number][] {
  const out: [number, number][] = [];
  lines.forEach((line, i) => {
    const at = line.indexOf(': ');
    if (at > 0 && !line.trimStart().startsWith('#')) out.push([i, at + 2]);
  });
  return out;
}

function applyText(text: string, m: TextMutation): string {
  const lines = text.split('\n');
  const values = valueLines(lines);
  const pick = (n: number) => values[n % Math.max(1, values.length)];
  const setValue = (n: number, edit: (value: string) => string) => {
    const chosen = pick(n);
    if (!chosen) return text;
    const [i, at] = chosen;
    lines[i] = lines[i].slice(0, at) + edit(lines[i].slice(at));
    return lines.join('\n');
  };
  switch (m.kind) {
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'duplicate-line': {
      const i = m.at % lines.length;
      lines.splice(i, 0, lines[i]);
      return lines.join('\n');
    }
    case 'tag':
      return setValue(m.at, (v) => `${m.tag} ${v}`);
    case 'anchor-alias': {
      const withAnchor = setValue(m.at, (v) => `&${m.name} ${v}`);
      const next = withAnchor.split('\n');
      const targets = valueLines(next);
      const target = targets[m.to % Math.max(1, targets.length)];
      if (!target) return withAnchor;
      next[target[0]] = `${next[target[0]].slice(0, target[1])}*${m.name}`;
      return next.join('\n');
    }
    case 'undefined-alias':
      return setValue(m.at, () => `*${m.name}`);
    case 'merge': {
      const chosen = pick(m.at);
      if (!chosen) return text;
      const [i] = chosen;
      const indent = /^\s*(- )?/.exec(lines[i])![0].replace('-', ' ');
      lines.splice(i + 1, 0, `${indent}<<: ${m.value}`);
      return lines.join('\n');
    }
    case 'laughs':
      return `${LAUGHS}\n${text}`;
    case 'deep-flow':
      return setValue(m.at, () => `${'['.repeat(m.depth)}1${']'.repeat(m.depth)}`);
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'multi-document':
      return `${text}\n${m.text}`;
  }
}

// ---- the property ----

const mutatedProfile = fc
  .record({
    profile: fc.nat({ max: SHIPPED.length - 1 }),
    valueMutations: fc.array(valueMutation, { maxLength: 3 }),
    textMutations: fc.array(textMutation, { maxLength: 2 }),
  })
  .filter((c) => c.valueMutations.length + c.textMutations.length > 0)
  .map(({ profile, valueMutations, textMutations }) => {
    const { file } = SHIPPED[profile];
    let value = structuredClone(SHIPPED[profile].value);
    for (const m of valueMutations) value = applyValue(value, m);
    let text = stringify(value, { aliasDuplicateObjects: true });
    for (const m of textMutations) text = applyText(text, m);
    return { file, text };
  });

/** The longest run of characters a message may share with the input: an excerpt with its quotes, and a little. */
const SHARED_CHARS = EXCERPT_CHARS + 12;

function assertGoodRejection(error: unknown, file: string, text: string): void {
  if (!(error instanceof ProfileError)) throw error;
  const lines = error.message.split('\n');
  // One clear line per problem, at most MAX_PROBLEMS_SHOWN of them and a count of the rest.
  expect(lines.length).toBeLessThanOrEqual(Math.min(error.problems.length, MAX_PROBLEMS_SHOWN + 1));
  expect(error.file).toBe(file);
  for (const [i, p] of error.problems.slice(0, MAX_PROBLEMS_SHOWN).entries()) {
    const m = lines[i];
    expect(m).not.toMatch(/[\r\u2028\u2029]/);
    expect(m.length).toBeLessThan(1500);
    expect(p.path.length).toBeGreaterThan(0);
    const where = p.line ? `:${p.line}${p.col ? `:${p.col}` : ''}` : '';
    expect(m.startsWith(`${file}${where}: ${p.path}: `)).toBe(true);
    // A line, when given, is in the file; below the document level (a path in the profile) it is always given.
    expect(p.line === undefined || (p.line >= 1 && p.line <= text.split('\n').length)).toBe(true);
    expect(p.path.startsWith('(') || p.line !== undefined).toBe(true);
    const problem = m.slice(m.indexOf(': ', file.length) + 2);
    for (let j = 0; j + SHARED_CHARS <= problem.length; j++) {
      const window = problem.slice(j, j + SHARED_CHARS);
      if (text.includes(window)) throw new Error(`the message quotes a long piece of the input: "${window}" in ${m}`);
    }
  }
}

/** What a run relies on, for every profile the loader accepts. */
function assertRunnable(profile: Profile): void {
  expect(profile.duration).toBeGreaterThan(0);
  expect(profile.duration).toBeLessThanOrEqual(MAX_DURATION_MS);
  // An open model issues at least one op (a closed model always does).
  expect(
    profile.workload.rate === undefined ? 1 : (profile.workload.rate * profile.duration) / 1000,
  ).toBeGreaterThanOrEqual(1);
  const opCount = profile.workload.rate
    ? Math.ceil((profile.workload.rate * profile.duration) / 1000)
    : profile.workload.ops;
  for (const fault of profile.faults) {
    // A time window or an op window, within the run either way.
    expect((fault.start === undefined) !== (fault.fromOp === undefined)).toBe(true);
    if (fault.fromOp !== undefined) {
      expect(fault.fromOp).toBeLessThan(opCount!);
      expect(fault.toOp ?? fault.fromOp).toBeLessThan(opCount!);
      continue;
    }
    expect(fault.start).toBeLessThan(profile.duration);
    expect(fault.stop ?? profile.duration).toBeLessThanOrEqual(profile.duration);
  }
  expect(profile.client.backoff.initialMs).toBeLessThanOrEqual(profile.client.backoff.maxMs);
  for (const expr of [...profile.expect, ...Object.values(profile.controls).flat()]) {
    const { metric, target } = parseThreshold(expr ?? '');
    const [min, max] = metricRange(METRICS[metric]);
    expect(target >= min && target <= max).toBe(true);
  }
  const ranges = JSON.stringify(profile.workload.mix).matchAll(/"int":\[(-?[\d.e+]+),(-?[\d.e+]+)\]/g);
  for (const [, min, max] of ranges) expect(Number(min)).toBeLessThanOrEqual(Number(max));
}

describe('profile loader fuzz', () => {
  it(`${RUNS} mutated shipped profiles: each valid, or one clear ProfileError line per problem (seed ${SEED})`, () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(mutatedProfile, ({ file, text }) => {
        let loaded: ReturnType<typeof parseProfile>;
        try {
          loaded = parseProfile(file, text);
        } catch (error) {
          assertGoodRejection(error, file, text);
          rejected++;
          return;
        }
        assertRunnable(loaded.profile);
        accepted++;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Both outcomes happen: the mutations are not all fatal, and not all harmless.
    expect(accepted + rejected).toBe(RUNS);
    expect(accepted).toBeGreaterThan(RUNS / 50);
    expect(rejected).toBeGreaterThan(RUNS / 2);
    // 1000 runs take about 25 s alone on these 2-core machines; the bound is for a hang, not for speed.
  }, 180_000);

  it('every shipped profile loads unmutated (the starting points are valid)', () => {
    for (const { file, value } of SHIPPED) expect(() => parseProfile(file, stringify(value))).not.toThrow();
  });
});
