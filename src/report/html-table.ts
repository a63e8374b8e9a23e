// An HTML table for report.html. Every cell carries its column's name (data-label), so on a phone the page's CSS
// can stack a row into a card ("on: 523 ms") instead of squeezing eight columns into 360 pixels.
import { escapeHtml as e } from './escape.ts';

interface Cell {
  /** Cell content, already HTML. */
  html: string;
  /** A row header (th) instead of a data cell. */
  head?: boolean;
  cls?: string;
}

export interface Row {
  cells: Array<Cell | string>;
  bad?: boolean;
}

export function htmlTable(cls: string, headers: readonly string[], rows: readonly Row[], cards = true): string {
  const head = `<tr>${headers.map((h) => `<th>${e(h)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => {
    const cells = row.cells.map((raw, i) => {
      const cell = typeof raw === 'string' ? { html: raw } : raw;
      const tag = cell.head ? 'th' : 'td';
      const label = headers[i] ? ` data-label="${e(headers[i])}"` : '';
      return `<${tag}${cell.cls ? ` class="${cell.cls}"` : ''}${label}>${cell.html}</${tag}>`;
    });
    return `<tr${row.bad ? ' class="bad"' : ''}>${cells.join('')}</tr>`;
  });
  return `<div class="scroll"><table class="${cls}${cards ? ' cards' : ''}"><thead>${head}</thead><tbody>${body.join('')}</tbody></table></div>`;
}
