import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-bad-'));
function profile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const base = `name: bad
description: d
workload:
  rate: 5
  mix:
    - tool: search_documents
`;

const cases: [string, string, RegExp][] = [
  ['bad YAML', 'name: [oops\n', /invalid YAML/],
  ['wrong type', base.replace('rate: 5', 'rate: "five"'), /workload\.rate: /],
  [
    'unknown fault kind',
    `${base}faults:\n  - { seam: dependency, kind: meteor, start: 1s }\n`,
    /faults\[0\]\.kind: unknown dependency fault kind "meteor"/,
  ],
  [
    'unknown tool',
    base.replace('search_documents', 'search_everything'),
    /workload\.mix\[0\]\.tool: unknown tool "search_everything"/,
  ],
];

describe('bad input: one line, exit code 2, no stack trace', () => {
  for (const [what, text, pattern] of cases) {
    it(`${what} (validate and run)`, async () => {
      const file = profile(`${what.replace(/ /g, '-')}.yaml`, text);
      for (const command of ['validate', 'run']) {
        const result = await runCli([command, file, '--out', join(dir, 'out')].slice(0, command === 'run' ? 4 : 2));
        expect(result.code).toBe(2);
        const lines = result.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(file);
        expect(lines[0]).toMatch(pattern);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
    });
  }

  it('a missing profile file', async () => {
    const result = await runCli(['validate', join(dir, 'nope.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nope\.yaml: \(file\): no such file/);
  });

  it('a bad flag value', async () => {
    const result = await runCli(['run', '--seed', 'abc']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--seed/);
  });

  it('an unknown policy', async () => {
    const result = await runCli(['run', '--policy', 'yolo']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/resilient, naive, none/);
  });

  it('validate accepts the shipped profiles', async () => {
    const result = await runCli(['validate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ok chaos-profiles\/baseline\.yaml/);
  });
});
