// report.html's protocol matrix (a run in several pairings): the profiles x pairings table from report.json's
// `matrix`, a cell that differs from another pairing highlighted (and the differing numbers bold), each cell a link
// to that profile's section in its pairing's own report (`<pairing>/report.html`), and the profiles that were n/a.
import type { ProtocolMatrix } from '../measure/protocol-matrix.ts';
import { escapeHtml as e } from './escape.ts';
import { anchor } from './html-profile.ts';
import { htmlTable, type Row } from './html-table.ts';
import { matrixCellParts } from './matrix-cell.ts';

export const MATRIX_CSS = 'td.differs{background:#fff8c5}td.differs a{color:inherit}';

const mark = (text: string, differs: boolean) => (differs ? `<strong>${e(text)}</strong>` : e(text));

function row(r: ProtocolMatrix['rows'][number], pairings: readonly string[]): Row {
  const cells = pairings.map((pairing) => {
    const cell = r.cells[pairing];
    const parts = matrixCellParts(cell, r.differs);
    const differs = cell.verdict !== 'n/a' && r.differs.length > 0;
    const body = `${mark(parts.verdict, parts.verdictDiffers)}<br>${parts.numbers.map((n) => mark(n.text, n.differs)).join(', ')}`;
    // An n/a cell did not run: its pairing's report has no section for it.
    const html =
      cell.verdict === 'n/a' ? body : `<a href="${e(`${pairing}/report.html#${anchor(r.profile)}`)}">${body}</a>`;
    return { html, ...(differs && { cls: 'differs' }) };
  });
  return {
    cells: [{ html: e(r.profile), head: true }, ...cells, e(r.differs.length > 0 ? r.differs.join(', ') : 'same')],
  };
}

export function matrixHtml(matrix: ProtocolMatrix): string {
  const names = matrix.pairings.map((p) => p.name);
  const differing = matrix.rows.filter((r) => r.differs.length > 0).length;
  return `<h2>Protocol pairings</h2>
<ul>${matrix.pairings.map((p) => `<li><a href="${e(`${p.name}/report.html`)}"><code>${e(p.name)}</code></a>: ${e(p.summary)}</li>`).join('')}</ul>
<p class="meta">${differing} of ${matrix.rows.length} profile(s) differ between pairings (highlighted; the differing numbers in bold). Each cell links to the profile in its pairing's report.</p>
${htmlTable(
  'matrix',
  ['profile', ...names, 'differs'],
  matrix.rows.map((r) => row(r, names)),
)}`;
}
