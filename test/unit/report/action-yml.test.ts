// action.yml (the composite action) is consistent with itself: every input it reads is declared, every run step
// names its shell, and the flags it passes are ones `faultline run` has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildProgram } from '../../../src/cli/program.ts';

const action = parse(readFileSync('action.yml', 'utf8'));
const text = readFileSync('action.yml', 'utf8');

describe('action.yml', () => {
  it('is a composite action whose run steps all name a shell', () => {
    expect(action.runs.using).toBe('composite');
    const runs = action.runs.steps.filter((s: { run?: string }) => s.run !== undefined);
    expect(runs.length).toBeGreaterThan(2);
    for (const step of runs) expect(step.shell, step.name).toBe('bash');
  });

  it('reads only declared inputs', () => {
    const used = [...text.matchAll(/inputs\.([a-z-]+)/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(5);
    for (const name of used) expect(Object.keys(action.inputs), name).toContain(name);
  });

  it('passes only flags that faultline run has', () => {
    const run = buildProgram().commands.find((c) => c.name() === 'run')!;
    const known = run.options.map((o) => o.long);
    const passed = [...text.matchAll(/(--[a-z-]+)"? "\$FL_/g)].map((m) => m[1]);
    expect(passed).toEqual(expect.arrayContaining(['--out', '--seed', '--baseline', '--metrics-out']));
    for (const flag of passed) expect(known, flag).toContain(flag);
  });
});
