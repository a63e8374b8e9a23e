// The idempotency contract on each tool: every check in order (checks.ts), one row per tool and check.
import { CHECKS } from './checks.ts';
import type { ToolUnderTest, Verdict } from './tool-under-test.ts';

export interface ContractRow {
  tool: string;
  check: string;
  title: string;
  verdict: Verdict;
  evidence: string;
  /** How long the check took (JUnit time). */
  ms: number;
}

export async function runContract(
  tools: readonly ToolUnderTest[],
  onRow: (row: ContractRow) => void = () => {},
): Promise<ContractRow[]> {
  const rows: ContractRow[] = [];
  for (const tool of tools) {
    for (const check of CHECKS) {
      const started = performance.now();
      const outcome = await check.run(tool);
      const ms = performance.now() - started;
      const row = { tool: tool.tool, check: check.name, title: check.title, ...outcome, ms };
      rows.push(row);
      onRow(row);
    }
  }
  return rows;
}

/**
 * 1 when any check failed, or when none could be judged (all n/a certifies nothing); else 0. A not-applicable row
 * beside passes is no failure: the table says why.
 */
export const contractExit = (rows: readonly ContractRow[]): number =>
  rows.some((r) => r.verdict === 'fail') || !rows.some((r) => r.verdict === 'pass') ? 1 : 0;
