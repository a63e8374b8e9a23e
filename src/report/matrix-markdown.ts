// summary.md's protocol sections: the profiles x pairings table of a run in several pairings (a bold cell is one
// that differs from another pairing; the last column names what differs), and the profiles that were n/a.
import { MATRIX_METRICS, type MatrixCell, type MatrixRow } from '../measure/protocol-matrix.ts';
import type { RunReport } from '../measure/run-report.ts';
import { escapeMd } from './escape.ts';
import { verdictStyle } from './verdict-style.ts';

const c = (s: string) => escapeMd(s);

/** A cell as text: verdict icon and label, then the key numbers; the ones that differ are bold. */
function matrixCellText(cell: MatrixCell, differs: readonly string[]): { verdict: string; numbers: string } {
  if (cell.verdict === 'n/a') return { verdict: '➖ n/a', numbers: cell.reason ?? '' };
  const style = verdictStyle(cell.verdict);
  const verdict = `${style.icon} ${cell.control ? 'control ' : ''}${style.label.toLowerCase()}`;
  const numbers = Object.keys(MATRIX_METRICS)
    .map((name) => {
      const v = cell.numbers[name];
      const text = `${SHORT[name] ?? name} ${v === null ? 'n/a' : Number.isInteger(v) ? v : v.toFixed(2)}`;
      return differs.includes(name) ? `**${text}**` : text;
    })
    .join(', ');
  return { verdict: differs.includes('verdict') ? `**${verdict}**` : verdict, numbers };
}

const SHORT: Record<string, string> = {
  error_rate: 'err',
  retry_success_rate: 'retry ok',
  duplicate_effects: 'dup',
  lost_effects: 'lost',
  attempts_per_op_max: 'att max',
  proto_errors: 'proto',
  recovery_ms: 'recovery ms',
};

function row(r: MatrixRow, pairings: string[]): string {
  const cells = pairings.map((name) => {
    const { verdict, numbers } = matrixCellText(r.cells[name], r.differs);
    return `${verdict}<br>${c(numbers)}`;
  });
  return `| ${c(r.profile)} | ${cells.join(' | ')} | ${r.differs.length > 0 ? c(r.differs.join(', ')) : 'same'} |`;
}

export function matrixSection(run: RunReport): string[] {
  const out: string[] = [];
  if (run.matrix) {
    const names = run.matrix.pairings.map((p) => p.name);
    const differing = run.matrix.rows.filter((r) => r.differs.length > 0).length;
    out.push(
      '### Protocol pairings',
      '',
      ...run.matrix.pairings.map((p) => `- ${c(p.name)}: ${c(p.summary)}`),
      '',
      `${differing} of ${run.matrix.rows.length} profile(s) differ between pairings (bold: what differs).`,
      '',
      `| profile | ${names.map(c).join(' | ')} | differs |`,
      `| --- | ${names.map(() => '---').join(' | ')} | --- |`,
      ...run.matrix.rows.map((r) => row(r, names)),
      '',
    );
  } else if (run.notApplicable && run.notApplicable.length > 0) {
    out.push(
      '### Not applicable in this pairing (not run, not failed)',
      '',
      ...run.notApplicable.map((n) => `- ${c(n.profile)} [${c(n.pairing)}]: ${c(n.reason)}`),
      '',
    );
  }
  return out;
}
