// report.json: the RunReport as is (schemaVersion 1), two-space indented for diffs.
import type { RunReport } from '../measure/run-report.ts';

export function renderJson(run: RunReport): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}
