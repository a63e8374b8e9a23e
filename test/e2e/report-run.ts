// A real failing run for the report e2e tests: the dependency-5xx profile driven by the naive client (no
// controls list, so its own thresholds apply): duplicate charges make `duplicate_effects == 0` fail, while
// `lost_effects == 0` holds. Both outcomes are stable run to run; the timing ones of the shipped profile are not.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../helpers/cli.ts';

export function failingProfile(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-report-e2e-'));
  const shipped = readFileSync(join(REPO, 'chaos-profiles/dependency-5xx.yaml'), 'utf8');
  const text = shipped
    .replace('name: dependency-5xx', 'name: payments-naive')
    .replace('  policy: resilient', '  policy: naive')
    .replace(/^expect:[\s\S]*$/m, 'expect:\n  - duplicate_effects == 0\n  - lost_effects == 0\n');
  if (!text.includes('policy: naive') || text.includes('controls:'))
    throw new Error('dependency-5xx.yaml changed shape');
  const file = join(dir, 'payments-naive.yaml');
  writeFileSync(file, text);
  return { dir, file };
}
