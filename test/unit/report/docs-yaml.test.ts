// Every YAML block in README.md and docs/*.md is valid as printed: a profile loads through the profile loader,
// a profile fragment (e.g. `target:`) loads inside a minimal profile, anything else (workflows) at least parses.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMap, parseDocument, stringify } from 'yaml';
import { parseProfile } from '../../../src/profile/load.ts';
import { profileSchema } from '../../../src/profile/schema.ts';

const FILES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const PROFILE_KEYS = new Set(Object.keys(profileSchema.shape));
const MINIMAL = {
  name: 'docs-fragment',
  description: 'a documentation fragment',
  duration: '1s',
  workload: { rate: 1, mix: [{ tool: 'search_documents', args: { query: 'x' } }] },
};

interface Block {
  where: string;
  text: string;
}

function yamlBlocks(file: string): Block[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: Block[] = [];
  let start = -1;
  for (const [i, line] of lines.entries()) {
    if (start < 0 && /^\s*```ya?ml\s*$/.test(line)) start = i;
    else if (start >= 0 && /^\s*```\s*$/.test(line)) {
      blocks.push({ where: `${file}:${start + 1}`, text: lines.slice(start + 1, i).join('\n') });
      start = -1;
    }
  }
  return blocks;
}

type Kind = 'profile' | 'fragment' | 'other';

/** A profile has a name and a workload; a fragment has only profile keys; anything else is other YAML. */
function kindOf(text: string): Kind {
  const doc = parseDocument(text);
  if (!isMap(doc.contents)) return 'other';
  const keys = Object.keys(doc.toJS());
  if (keys.includes('name') && keys.includes('workload')) return 'profile';
  return keys.every((k) => PROFILE_KEYS.has(k)) ? 'fragment' : 'other';
}

const blocks = FILES.flatMap(yamlBlocks);
const of = (kind: Kind) => blocks.filter((b) => kindOf(b.text) === kind).map((b) => [b.where, b.text] as const);

describe('YAML in README.md and docs', () => {
  it('finds the README profile example among the profiles', () => {
    expect(of('profile').some(([where]) => where.startsWith('README.md'))).toBe(true);
  });

  it.each(blocks.map((b) => [b.where, b.text] as const))('%s parses as YAML', (_where, text) => {
    expect(parseDocument(text, { uniqueKeys: true }).errors.map((e) => e.message)).toEqual([]);
  });

  it.each(of('profile'))('%s loads as a profile', (where, text) => {
    expect(() => parseProfile(where, text)).not.toThrow();
  });

  it.each(of('fragment'))('%s loads inside a minimal profile', (where, text) => {
    expect(() => parseProfile(where, stringify({ ...MINIMAL, ...parseDocument(text).toJS() }))).not.toThrow();
  });

  it('would catch the old README example (a {op} placeholder inside a flow mapping)', () => {
    const old = 'args: { customer_id: cus_{op}, amount_cents: 100 }';
    expect(parseDocument(old).errors.length).toBeGreaterThan(0);
  });
});
