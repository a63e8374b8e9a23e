// Every check the default suite's one run serves, by area (default-suite.test.ts registers them).
import { describe } from 'vitest';
import { applicationChecks } from './application.ts';
import { edgeChecks } from './edge.ts';
import { eraChecks } from './era.ts';
import { foundationChecks } from './foundation.ts';
import { networkChecks } from './network.ts';
import { primitiveChecks } from './primitives.ts';
import { serverSeamChecks } from './server-seam.ts';
import type { ShippedRun } from './shipped-run.ts';
import { stdioChecks } from './stdio.ts';

const AREAS: Record<string, (shipped: ShippedRun) => void> = {
  'the foundation profiles': foundationChecks,
  'the network profiles': networkChecks,
  'the edge profiles': edgeChecks,
  'the server-seam profiles': serverSeamChecks,
  'the application profiles': applicationChecks,
  'the stdio profiles': stdioChecks,
  'the 2026 primitives (tasks, input rounds, listen)': primitiveChecks,
  "the 2026 era's profiles": eraChecks,
};

export function suiteChecks(shipped: ShippedRun): void {
  for (const [area, checks] of Object.entries(AREAS)) describe(`${area}, from this run`, () => checks(shipped));
}
