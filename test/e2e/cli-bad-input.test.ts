import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
      args: { query: invoices }
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
    // A toxic attribute's bound is its declared unit's (here µs): no hand list to forget a new toxic in.
    'toxic attribute past its bound',
    `${base}faults:\n  - { seam: network, kind: slicer, average_size: 1, delay: 86400000001, start: 0 }\n`,
    /faults\[0\]\.delay: 86400000001 us is longer than 24 h; expected at most 86400000000 us/,
  ],
  [
    'unknown tool',
    base.replace('search_documents', 'search_everything'),
    /workload\.mix\[0\]\.tool: unknown tool "search_everything"/,
  ],
  [
    'alias bomb',
    `${['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`)].join('\n')}\n${base}`,
    /: \(document\): aliases expand too much/,
  ],
  [
    'undefined alias',
    base.replace('rate: 5', 'rate: *fast'),
    /:4:9: \(document\): alias "\*fast" has no anchor before it/,
  ],
  [
    // Passed validate, then `run` ended in "internal error: ENAMETOOLONG" making its temporary directory.
    'name over the file name limit',
    base.replace('name: bad', `name: ${'a'.repeat(300)}`),
    /:1:\d+: name: expected a name of at most 100 characters/,
  ],
  [
    'raw NUL byte',
    base.replace('query: invoices', 'query: "in\u0000voices"'),
    /:7: \(document\): invalid YAML: raw control character U\+0000/,
  ],
  // Was the same line plus the yaml library's warning on stderr ("Keys with collection values will be stringified").
  ['complex key', `? [a, b]\n: 1\n${base}`, /:1:\d+: \(document\): expected a plain key, not a sequence or mapping/],
  [
    'deadline shorter than one attempt',
    `${base}client: { attemptTimeoutMs: 3000, deadlineMs: 1000 }\n`,
    /client\.deadlineMs: expected at least one attempt's time \(client\.attemptTimeoutMs 3000\), found 1000/,
  ],
];

/** A read-only tmpfs for --out (root writes through chmod, not through a read-only mount), where mounting is allowed. */
const readOnly = mountReadOnly(join(dir, 'read-only'));
afterAll(() => {
  if (!readOnly.skip) execFileSync('umount', [readOnly.dir]);
});

function mountReadOnly(at: string): { dir: string; skip?: string } {
  mkdirSync(at);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', at], { stdio: 'pipe' });
    return { dir: at };
  } catch (error) {
    return {
      dir: at,
      skip: `mounting a tmpfs is not permitted here: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`,
    };
  }
}

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

  it('a bad --out is refused before anything runs, on one line', async () => {
    const file = profile('fine.yaml', base);
    const aFile = profile('not-a-dir.txt', 'x');
    const cases: [string, RegExp][] = [
      ['/proc/self/faultline-out', /--out \/proc\/self\/faultline-out: under \/proc or \/sys/],
      [aFile, /not-a-dir\.txt: cannot create it: exists and is not a directory/],
      [join(aFile, 'sub'), /sub: cannot create it: a parent is not a directory/],
    ];
    for (const [out, pattern] of cases) {
      const result = await runCli(['run', file, '--out', out], { timeoutMs: 20_000 });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(pattern)]);
      expect(result.stdout).toBe('');
    }
  });

  it.skipIf(readOnly.skip)(
    `--out on a read-only mount names EROFS${readOnly.skip ? ` (skipped: ${readOnly.skip})` : ''}`,
    async () => {
      const file = profile('fine-ro.yaml', base);
      const cases: [string, string][] = [
        [readOnly.dir, 'cannot write in it'],
        // A recursive mkdir says ENOENT here; the line must give the real reason.
        [join(readOnly.dir, 'a', 'b'), 'cannot create it'],
      ];
      for (const [out, what] of cases) {
        const result = await runCli(['run', file, '--out', out], { timeoutMs: 30_000 });
        expect(result.code).toBe(2);
        expect(result.stderr.trim().split('\n')).toEqual([
          `faultline: --out ${out}: ${what}: read-only file system (EROFS); expected a writable directory`,
        ]);
      }
    },
  );

  it('a folder without profiles is exit 2 and leaves the reports in --out alone', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const out = join(dir, 'kept');
    mkdirSync(out);
    writeFileSync(join(out, 'report.json'), '{"kept":true}');
    const result = await runCli(['run', empty, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([`faultline: ${empty}/: no .yaml profiles found`]);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('{"kept":true}');
  });

  it('a profile over the size caps needs --allow-large to run; validate says so', async () => {
    const file = profile(
      'large.yaml',
      base.replace('rate: 5', 'rate: 10000').replace('workload:', 'duration: 120s\nworkload:'),
    );
    const run = await runCli(['run', file, '--out', join(dir, 'out')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      `faultline: ${file}: the workload issues 1200000 ops, over the cap of 1000000; pass --allow-large to run it anyway`,
    ]);
    const validate = await runCli(['validate', file]);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('over the cap of 1000000; pass --allow-large');
  });

  it('a profile that never ends (/dev/zero, a FIFO fed forever) is refused after the size cap', async () => {
    const fifo = join(dir, 'endless.yaml');
    execFileSync('mkfifo', [fifo]);
    // The writer blocks until faultline opens the FIFO, then writes until the reader is gone (SIGPIPE).
    const writer = spawn('sh', ['-c', `exec yes name: > '${fifo}'`], { stdio: 'ignore' });
    const writerGone = new Promise((resolve) => writer.on('exit', resolve));
    for (const file of ['/dev/zero', fifo]) {
      const result = await runCli(['validate', file], { timeoutMs: 30_000 });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        `faultline: ${file}: (file): more than 262144 bytes; expected a file of at most 262144 bytes`,
      ]);
    }
    await writerGone;
  });

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

  for (const jobs of ['0', '17', '1.5', 'two']) {
    it(`--jobs ${jobs}: one line naming the flag and what it expects, exit 2, nothing run`, async () => {
      const out = join(dir, `jobs-${jobs}`);
      const result = await runCli(['run', '--jobs', jobs, '--out', out]);
      expect(result.code).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/--jobs <n>.*expected a whole number from 1 to 16/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    });
  }

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
