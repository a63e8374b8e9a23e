// summary.md's protocol sections: the profiles x pairings table of a run in several pairings (a bold cell is one
// that differs from another pairing; the last column names what differs), and the profiles that were n/a.
import type { MatrixRow } from '../measure/protocol-matrix.ts';
import type { RunReport } from '../measure/run-report.ts';
import { escapeMd } from './escape.ts';
import { matrixCellParts, matrixColumns } from './matrix-cell.ts';

const c = (s: string) => escapeMd(s);

/** Why a profile was n/a, cut to a line's worth at a word (report.json and report.html keep the whole reason). */
const BRIEF_CHARS = 100;
function brief(reason: string): string {
  if (reason.length <= BRIEF_CHARS) return reason;
  const cut = reason.slice(0, BRIEF_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), BRIEF_CHARS / 2)).replace(/[\s,;:]+$/, '')} …`;
}

function row(r: MatrixRow, pairings: string[]): string {
  const cells = pairings.map((name) => {
    const parts = matrixCellParts(r.cells[name], r.differs);
    const bold = (text: string, differs: boolean) => (differs ? `**${c(text)}**` : c(text));
    return `${bold(parts.verdict, parts.verdictDiffers)}<br>${parts.numbers.map((n) => bold(brief(n.text), n.differs)).join(', ')}`;
  });
  return `| ${c(r.profile)} | ${cells.join(' | ')} | ${r.differs.length > 0 ? c(r.differs.join(', ')) : 'same'} |`;
}

export function matrixSection(run: RunReport): string[] {
  const out: string[] = [];
  if (run.matrix && run.matrix.rows.length > 0) {
    const columns = matrixColumns(run.matrix);
    const names = columns.map((p) => p.name);
    const differing = run.matrix.rows.filter((r) => r.differs.length > 0).length;
    out.push(
      '### Protocol pairings',
      '',
      ...columns.map((p) => `- ${c(p.name)}: ${c(p.summary)}`),
      '',
      `${differing} of ${run.matrix.rows.length} profile(s) that chose several pairings differ between them (bold: what differs).`,
      '',
      `| profile | ${names.map(c).join(' | ')} | differs |`,
      `| --- | ${names.map(() => '---').join(' | ')} | --- |`,
      ...run.matrix.rows.map((r) => row(r, names)),
      '',
    );
  }
  const listed = new Set(run.matrix?.rows.map((r) => r.profile));
  const notApplicable = run.notApplicable?.filter((n) => !listed.has(n.profile)) ?? [];
  if (notApplicable.length > 0) {
    out.push(
      '### Not applicable in this pairing (not run, not failed)',
      '',
      ...notApplicable.map((n) => `- ${c(n.profile)} [${c(n.pairing)}]: ${c(brief(n.reason))}`),
      '',
    );
  }
  return out;
}
