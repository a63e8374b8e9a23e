// One cell of the profiles x pairings table as parts both renderers (summary.md, report.html) mark up their own
// way: the verdict's words, and each key number's text with whether it is one that differs between pairings.
import { chosen, MATRIX_METRICS, type MatrixCell, type ProtocolMatrix } from '../measure/protocol-matrix.ts';
import { verdictStyle } from './verdict-style.ts';

interface MatrixCellParts {
  /** Icon and verdict ("✅ pass", "❌ control fail", "➖ n/a"). */
  verdict: string;
  verdictDiffers: boolean;
  /** The key numbers, or the reason an n/a cell did not run. */
  numbers: { text: string; differs: boolean }[];
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

export function matrixCellParts(cell: MatrixCell, differs: readonly string[]): MatrixCellParts {
  if (cell.verdict === 'n/a') {
    return { verdict: '➖ n/a', verdictDiffers: false, numbers: [{ text: cell.reason ?? '', differs: false }] };
  }
  const style = verdictStyle(cell.verdict);
  return {
    verdict: `${style.icon} ${cell.control ? 'control ' : ''}${style.label.toLowerCase()}`,
    verdictDiffers: differs.includes('verdict'),
    numbers: Object.keys(MATRIX_METRICS).map((name) => {
      const v = cell.numbers[name];
      const text = `${SHORT[name] ?? name} ${v === null || v === undefined ? 'n/a' : Number.isInteger(v) ? v : v.toFixed(2)}`;
      return { text, differs: differs.includes(name) };
    }),
  };
}

/** The pairings some row ran in (or was n/a in): a column no profile chose would be empty. */
export function matrixColumns(matrix: ProtocolMatrix): ProtocolMatrix['pairings'] {
  return matrix.pairings.filter(({ name }) => matrix.rows.some((r) => r.cells[name] && chosen(r.cells[name])));
}
