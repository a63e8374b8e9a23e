import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { expect, it } from 'vitest';

it('runs with its temporary files under one folder of its own (test/helpers/run-tmpdir.ts), not nested', () => {
  expect(basename(tmpdir())).toMatch(/^faultline-tests-/);
  expect(process.env.FAULTLINE_TEST_TMPDIR).toBe(tmpdir());
  expect(basename(dirname(tmpdir()))).not.toMatch(/^faultline-tests-/);
});
