// report.html's protocol matrix (a run in several pairings): the profiles x pairings table from report.json's
// `matrix`, a cell that differs from another pairing highlighted (and the differing numbers bold), each cell a link
// to that profile's section for its pairing further down the same page.
import type { ProtocolMatrix } from '../measure/protocol-matrix.ts';
import { escapeHtml as e } from './escape.ts';
import { anchor } from './html-profile.ts';
import { htmlTable, type Row } from './html-table.ts';
import { matrixCellParts, matrixColumns } from './matrix-cell.ts';

export const MATRIX_CSS = 'td.differs{background:#fff8c5}td.differs a{color:inherit}';

const mark = (text: string, differs: boolean) => (differs ? `<strong>${e(text)}</strong>` : e(text));

function row(r: ProtocolMatrix['rows'][number], pairings: readonly string[]): Row {
  const cells = pairings.map((pairing) => {
    const cell = r.cells[pairing];
    const parts = matrixCellParts(cell, r.differs);
    const differs = cell.verdict !== 'n/a' && r.differs.length > 0;
    const body = `${mark(parts.verdict, parts.verdictDiffers)}<br>${parts.numbers.map((n) => mark(n.text, n.differs)).join(', ')}`;
    // An n/a cell did not run: the page has no section for it.
    const html = cell.verdict === 'n/a' ? body : `<a href="#${e(anchor({ name: r.profile, pairing }))}">${body}</a>`;
    return { html, ...(differs && { cls: 'differs' }) };
  });
  return {
    cells: [{ html: e(r.profile), head: true }, ...cells, e(r.differs.length > 0 ? r.differs.join(', ') : 'same')],
  };
}

/** Empty when no profile ran in more than one pairing. */
export function matrixHtml(matrix: ProtocolMatrix): string {
  if (matrix.rows.length === 0) return '';
  const columns = matrixColumns(matrix);
  const names = columns.map((p) => p.name);
  const differing = matrix.rows.filter((r) => r.differs.length > 0).length;
  return `<h2>Protocol pairings</h2>
<ul>${columns.map((p) => `<li><code>${e(p.name)}</code>: ${e(p.summary)}</li>`).join('')}</ul>
<p class="meta">${differing} of ${matrix.rows.length} profile(s) that chose several pairings differ between them (highlighted; the differing numbers in bold). Each cell links to the profile's section for that pairing.</p>
${htmlTable(
  'matrix',
  ['profile', ...names, 'differs'],
  matrix.rows.map((r) => row(r, names)),
)}`;
}
