import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { expect, it } from 'vitest';
import { keptTmpdir } from '../helpers/run-tmpdir.ts';

it('runs with its temporary files under one folder of its own (test/helpers/run-tmpdir.ts), not nested', () => {
  expect(basename(tmpdir())).toMatch(/^faultline-tests-/);
  expect(process.env.FAULTLINE_TEST_TMPDIR).toBe(tmpdir());
  expect(basename(dirname(tmpdir()))).not.toMatch(/^faultline-tests-/);
});

it('keeps what a test leaves for a person on purpose outside that folder', () => {
  expect(keptTmpdir()).toBe(dirname(tmpdir()));
});
