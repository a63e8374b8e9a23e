// The contract as JUnit XML (schema/junit.xsd): a testsuite per tool, a testcase per check; fail is a failure,
// n/a is skipped with its reason.
import { escapeXml } from '../report/escape.ts';
import type { ContractRow } from './suite.ts';

export function contractJunit(rows: readonly ContractRow[]): string {
  const tools = [...new Set(rows.map((r) => r.tool))];
  const count = (of: readonly ContractRow[], verdict: string) => of.filter((r) => r.verdict === verdict).length;
  const suites = tools.map((tool) => {
    const mine = rows.filter((r) => r.tool === tool);
    const cases = mine.map((r) => {
      const open = `<testcase name="${escapeXml(r.check)}" classname="idempotency.${escapeXml(tool)}" time="${seconds(r.ms)}"`;
      const message = escapeXml(r.evidence);
      if (r.verdict === 'fail') return `${open}><failure message="${message}" type="contract"/></testcase>`;
      if (r.verdict === 'n/a') return `${open}><skipped message="not applicable: ${message}" type="n/a"/></testcase>`;
      return `${open}/>`;
    });
    return [
      `<testsuite name="${escapeXml(tool)}" tests="${mine.length}" failures="${count(mine, 'fail')}" errors="0" skipped="${count(mine, 'n/a')}" time="${seconds(total(mine))}">`,
      ...cases,
      '</testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="faultline idempotency" tests="${rows.length}" failures="${count(rows, 'fail')}" errors="0" time="${seconds(total(rows))}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

const total = (rows: readonly ContractRow[]) => rows.reduce((ms, r) => ms + r.ms, 0);
const seconds = (ms: number) => (ms / 1000).toFixed(3);
