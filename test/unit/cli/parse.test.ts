// Flag value parsers for capacity levels: a bad list is one line naming what was expected.
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseLevelList } from '../../../src/cli/parse.ts';

describe('parseLevelList', () => {
  it('reads whole-number levels and sorts them', () => {
    expect(parseLevelList('16,1, 4,64', 'ops in flight', 1000, false)).toEqual([1, 4, 16, 64]);
  });

  it('reads fractional rates when allowed', () => {
    expect(parseLevelList('10,2.5,200', 'ops per second', 10_000, true)).toEqual([2.5, 10, 200]);
  });

  it.each([
    ['1,,4', '""'],
    ['0,4', '"0"'],
    ['1,2.5', '"2.5"'],
    ['1,-4', '"-4"'],
    ['abc', '"abc"'],
    ['1,1001', '"1001"'],
    ['4,4', 'a repeat'],
  ])('refuses %s, naming %s', (value, named) => {
    let error: unknown;
    try {
      parseLevelList(value, 'ops in flight', 1000, false);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toContain(`got ${named}`);
    expect((error as Error).message).toMatch(/^expected a comma-separated list of ops in flight/);
    expect((error as Error).message).not.toContain('\n');
  });
});
