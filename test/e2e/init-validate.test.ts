// faultline init writes a starter profile that validates and runs through the CLI, and never overwrites; faultline
// validate reports every mistake of a profile at once, each at its line and column, with did-you-mean.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-init-'));

describe('faultline init', () => {
  it('writes a starter profile with the schema line; it validates and runs', async () => {
    const init = await runCli(['init'], { cwd: dir });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const file = join(dir, 'chaos-profiles', 'starter.yaml');
    const text = readFileSync(file, 'utf8');
    const schemaLine = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
    // The line points at this copy's schema, relative to the profile, so editors find it.
    expect(JSON.parse(readFileSync(join(dir, 'chaos-profiles', schemaLine![1]), 'utf8')).title).toBe(
      'Faultline chaos profile',
    );

    const validate = await runCli(['validate', file], { cwd: dir });
    expect(validate.stderr).toBe('');
    expect(validate.stdout).toBe(`ok ${file}\n`);
    expect(validate.code).toBe(0);

    const run = await runCli(['run', file, '--out', join(dir, 'out')], { cwd: dir, timeoutMs: 120_000 });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.stdout).toMatch(/1 run\(s\): passed 1, failed 0/);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.profiles[0].metrics.ops).toBeGreaterThan(0);
    expect(report.profiles[0].metrics.faultWindows[0].hits).toBeGreaterThan(0);
  }, 150_000);

  it('refuses to overwrite a file: one line, exit 2, the file untouched', async () => {
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, 'mine\n');
    const again = await runCli(['init', file], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `faultline: ${file}: (file): already exists; expected a new file (init never overwrites)\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
  });
});

describe('faultline validate', () => {
  it('reports three mistakes at once, each at its line and column, with did-you-mean', async () => {
    const file = join(dir, 'three.yaml');
    writeFileSync(
      file,
      [
        'name: three-mistakes',
        'description: a profile with three mistakes',
        'duraton: 2s',
        'workload:',
        '  rate: 20',
        '  mix:',
        '    - tool: search_documents',
        '      args: { query: invoices }',
        'faults:',
        '  - seam: network',
        '    kind: latncy',
        '    start: 1s',
        '  - seam: network',
        '    kind: latency',
        '    start: 500ms',
        '    latency: fast',
        '',
      ].join('\n'),
    );
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      `faultline: ${file}:3:1: duraton: unknown key "duraton" (did you mean "duration"?)`,
      `faultline: ${file}:11:11: faults[0].kind: unknown network fault kind "latncy" (did you mean "latency"?); ` +
        'expected one of: latency, bandwidth, slicer, slow_close, timeout, reset_peer, limit_data, down',
      `faultline: ${file}:16:14: faults[1].latency: expected a duration such as 500, "500ms", "2s" or "1m"; ` +
        'found the text "fast"',
      '',
    ]);
  });
});
