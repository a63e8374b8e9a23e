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
