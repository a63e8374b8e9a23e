// bench/args.ts: a bench's options parsed with their defaults and parsers; --help exits 0, bad input exits 2 with
// one line that names the bench.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { benchArgs, hidden, parseChoice, parseCount, parseSeconds } from '../../../bench/args.ts';

const argv = (...args: string[]) => ['node', 'bench.ts', ...args];
const declare = (c: import('commander').Command) =>
  c
    .option('--rounds <n>', 'rounds', parseCount, 5)
    .option('--warmup <s>', 'warm-up', parseSeconds, 1)
    .addOption(hidden('--side <side>', parseChoice(['bare', 'harness'])));

/** Runs benchArgs, turning its process.exit into a thrown code; collects what it wrote. */
function parse(...args: string[]) {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => written.push(String(s)) > 0);
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => written.push(String(s)) > 0);
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Error(`exit ${code}`);
  });
  try {
    return {
      result: benchArgs<{ rounds: number; warmup: number; side?: string }>('bench:x', 'x', declare, argv(...args)),
      written,
    };
  } catch (error) {
    return { exit: (error as Error).message, written };
  }
}

afterEach(() => vi.restoreAllMocks());

describe('benchArgs', () => {
  it('defaults, parsed values and a hidden child option', () => {
    expect(parse().result?.options).toEqual({ rounds: 5, warmup: 1 });
    expect(parse('--rounds', '3', '--warmup', '0', '--side', 'harness').result?.options).toEqual({
      rounds: 3,
      warmup: 0,
      side: 'harness',
    });
  });

  it('an unknown flag, a bad value, a stray argument: exit 2, one line naming the bench', () => {
    for (const args of [['--round', '3'], ['--rounds', 'x'], ['--side', 'other'], ['extra']]) {
      const { exit, written } = parse(...args);
      expect(exit, args.join(' ')).toBe('exit 2');
      expect(written.join('').split('\n')[0], args.join(' ')).toMatch(/^bench:x: /);
    }
  });

  it('--help lists the options it shows, not the hidden ones, and exits 0', () => {
    const { exit, written } = parse('--help');
    expect(exit).toBe('exit 0');
    expect(written.join('')).toContain('--rounds <n>');
    expect(written.join('')).not.toContain('--side');
  });
});
