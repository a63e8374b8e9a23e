// A profile's YAML text → a plain value, and the line of any path in it. Hostile YAML (alias bombs, undefined or
// circular aliases, deep nesting, unknown tags, huge files) ends in a ProfileError, never in another exception.
// `<<` merge keys are supported (YAML 1.1 style) so profiles can share a block through an anchor.
import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isCollection,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  Parser,
  type Scalar,
  visit,
  YAMLParseError,
} from 'yaml';
import { type DocPath, excerpt, ProfileError } from '../core/profile-error.ts';
import { MAX_USER_FILE_BYTES } from './user-file.ts';

/** A profile given as text (defineProfile) has the same cap as one read from a file. */
const MAX_PROFILE_BYTES = MAX_USER_FILE_BYTES;
/** The deepest nesting of collections (the shipped profiles need about 6). */
const MAX_NESTING = 64;
/** Characters YAML does not allow raw in a document (C0 controls but tab, line feed, carriage return). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters looked for
const DISALLOWED_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
/** Alias expansions allowed while building the value (the yaml library's billion-laughs guard). */
const MAX_ALIAS_COUNT = 100;

/** A place in the text, 1-based. */
interface Position {
  line: number;
  col: number;
}

export interface YamlSource {
  value: unknown;
  /**
   * Where the deepest node on `path` that the document has starts; with `key`, where that key of the mapping at
   * `path` is written (an unknown key is shown where it stands, not where its mapping starts).
   */
  locate(path: DocPath, key?: string): Position | undefined;
}

export function readYaml(file: string, text: string): YamlSource {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_PROFILE_BYTES) {
    throw new ProfileError(file, '(file)', `${bytes} bytes; expected a profile of at most ${MAX_PROFILE_BYTES} bytes`);
  }
  // The composer recurses per level, and a stack overflow there can take V8 down: measure the depth first, on the
  // parser's tokens (built without recursion), then compose those same tokens.
  const lines = new LineCounter();
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const deep = tooDeepOffset(tokens);
  if (deep !== undefined) {
    const { line, col } = lines.linePos(deep);
    throw new ProfileError(file, '(document)', `nested deeper than ${MAX_NESTING} levels`, line, col);
  }
  const control = DISALLOWED_CONTROL.exec(text);
  if (control) {
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ProfileError(
      file,
      '(document)',
      `invalid YAML: raw control character ${code}; write it as an escape in a double-quoted string`,
      lines.linePos(control.index).line,
    );
  }
  const doc = firstDocument(tokens, text.length);
  const position = (offset: number): Position => lines.linePos(offset);
  const problems = doc.errors.length > 0 ? doc.errors : doc.warnings;
  if (problems.length > 0) {
    throw ProfileError.of(
      file,
      problems.map((problem) => ({
        path: '(document)',
        problem: `invalid YAML: ${yamlMessage(problem.message)}`,
        ...position(problem.pos[0]),
      })),
    );
  }
  visit(doc, {
    Alias(_, alias) {
      if (!alias.resolve(doc)) {
        const where = alias.range ? position(alias.range[0]) : undefined;
        throw new ProfileError(
          file,
          '(document)',
          `alias ${excerpt(`*${alias.source}`)} has no anchor before it`,
          where?.line,
          where?.col,
        );
      }
    },
    Pair(_, pair) {
      // A collection as a key has no JSON form: the yaml library would stringify it, with a warning on stderr.
      const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      if (isCollection(key)) {
        const where = isNode(pair.key) && pair.key.range ? position(pair.key.range[0]) : undefined;
        throw new ProfileError(
          file,
          '(document)',
          'expected a plain key, not a sequence or mapping used as a key',
          where?.line,
          where?.col,
        );
      }
      if (!isMergeKey(pair.key)) return;
      const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
      const ok = sources.every((s) => isMap(s) || (isAlias(s) && isMap(s.resolve(doc))));
      if (!ok) {
        const where = pair.key.range ? position(pair.key.range[0]) : undefined;
        throw new ProfileError(
          file,
          '(document)',
          'expected a mapping or an alias of one after "<<:"',
          where?.line,
          where?.col,
        );
      }
    },
  });

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library's guard against exponential alias expansion (billion laughs) is the only error expected here.
    if (!(error instanceof ReferenceError)) throw error;
    throw new ProfileError(file, '(document)', `aliases expand too much (${yamlMessage(error.message)})`);
  }
  const nesting = nestingProblem(value);
  if (nesting) throw new ProfileError(file, '(document)', nesting);

  return {
    value,
    locate(path, key) {
      if (key !== undefined) {
        const map = doc.getIn(path, true);
        const pair = isMap(map) ? map.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
        if (isNode(pair?.key) && pair.key.range) return position(pair.key.range[0]);
      }
      for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n), true);
        if (isNode(node) && node.range) return position(node.range[0]);
      }
      return undefined;
    },
  };
}

/** The stream's first document; a second one is an error in it, as in the yaml library's parseDocument. */
function firstDocument(tokens: CST.Token[], length: number): Document.Parsed {
  let first: Document.Parsed | undefined;
  for (const doc of new Composer({ uniqueKeys: true, merge: true }).compose(tokens, true, length)) {
    if (!first) first = doc;
    else {
      first.errors.push(
        new YAMLParseError([doc.range[0], doc.range[1]], 'MULTIPLE_DOCS', 'expected one document, found a second'),
      );
      break;
    }
  }
  return first!;
}

/** The offset of the first collection nested deeper than MAX_NESTING, if any. */
function tooDeepOffset(tokens: CST.Token[]): number | undefined {
  const stack: [CST.Token | null | undefined, number][] = tokens.map((token) => [token, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (!token) continue;
    if (token.type === 'document') stack.push([token.value, depth]);
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > MAX_NESTING) return token.offset;
      for (const item of token.items) {
        if ('key' in item) stack.push([item.key, depth + 1]);
        stack.push([item.value, depth + 1]);
      }
    }
  }
  return undefined;
}

/** Aliases can nest a collection inside itself or stack anchored blocks: the value's own depth, bounded. */
function nestingProblem(value: unknown, depth = 0, path: object[] = []): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (path.includes(value)) return 'an alias refers to a collection that contains it';
  if (depth >= MAX_NESTING) return `nested deeper than ${MAX_NESTING} levels (through aliases)`;
  const children = value instanceof Map ? [...value.values()] : Object.values(value);
  for (const child of children) {
    const problem = nestingProblem(child, depth + 1, [...path, value]);
    if (problem) return problem;
  }
  return undefined;
}

/** A plain `<<` key, which the yaml library (merge: true) resolves to its merge symbol. */
function isMergeKey(key: unknown): key is Scalar {
  return isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';
}

/** The yaml library's message on one line; what follows its first ": " comes from the input, so it is cut short. */
function yamlMessage(message: string): string {
  const first = message.split('\n')[0].trim();
  const colon = first.indexOf(': ');
  if (colon === -1) return first.length > 100 ? `${first.slice(0, 100)}…` : first;
  return `${first.slice(0, Math.min(colon, 100))}: ${excerpt(first.slice(colon + 2))}`;
}
