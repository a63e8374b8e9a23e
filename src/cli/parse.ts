// Flag value parsers: a bad value is a usage error (exit 2) with a line that says what was expected.
import { InvalidArgumentError } from 'commander';

export function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) {
    throw new InvalidArgumentError('expected a whole number from 0 to 4294967295');
  }
  return Number(value);
}

export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected a port from 0 to 65535');
  return Number(value);
}

/** A whole number of at least 1 (a count of things to list). */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a whole number of at least 1');
  return Number(value);
}

/** A whole number from 1 to `max` (how many things at once). */
export function parseUpTo(max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
      throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
    return Number(value);
  };
}

/**
 * A comma-separated list of load levels (`1,4,16,64`), each in (0, max], whole numbers unless `fractions`; no
 * repeats. Returned in ascending order.
 */
export function parseLevelList(value: string, what: string, max: number, fractions: boolean): number[] {
  const parts = value.split(',').map((p) => p.trim());
  const number = fractions ? /^\d+(\.\d+)?$/ : /^\d+$/;
  const expected = `expected a comma-separated list of ${what} (e.g. ${fractions ? '10,50,200' : '1,4,16,64'}), each ${fractions ? 'a number' : 'a whole number'} from ${fractions ? 'above 0' : '1'} to ${max}, none repeated`;
  const levels = parts.map(Number);
  const bad = parts.find((p, i) => !number.test(p) || levels[i] <= 0 || levels[i] > max);
  if (bad !== undefined) throw new InvalidArgumentError(`${expected}; got "${bad}"`);
  if (new Set(levels).size !== levels.length) throw new InvalidArgumentError(`${expected}; got a repeat`);
  return [...levels].sort((a, b) => a - b);
}

/** A number above 0 (a ratio or a count of percentage points). */
export function parsePositive(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new InvalidArgumentError('expected a number above 0');
  return Number(value);
}
