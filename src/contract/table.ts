// The contract as a Markdown table: a row per tool and check, its verdict and evidence.
import { escapeMd } from '../report/escape.ts';
import type { ContractRow } from './suite.ts';

export function contractTable(rows: readonly ContractRow[]): string {
  return [
    '| tool | check | verdict | evidence |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${escapeMd(r.tool)} | ${r.check} | ${r.verdict} | ${escapeMd(r.evidence)} |`),
  ].join('\n');
}
