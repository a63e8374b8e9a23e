// The capacity table as rows of plain text cells, one row per run (the control, then the faulted run, of each
// level), and the three renderings of it: the console, summary.md, report.html (with its chart).
import type { CapacityLevel, CapacityPoint, CapacityReview } from '../measure/capacity.ts';
import { renderCapacitySvg } from './capacity-chart.ts';
import { escapeHtml, escapeMd } from './escape.ts';
import { fmtMs, fmtPct } from './format.ts';
import { htmlTable } from './html-table.ts';

const CAPACITY_HEADERS = [
  'level',
  'run',
  'ok ops/s',
  'p50',
  'p95',
  'p99',
  'op success',
  'attempts/op',
  'dup / ghost / lost',
  'verdict',
  'breaks away',
] as const;

const na = (v: number | null, f: (v: number) => string) => (v === null ? 'n/a' : f(v));
const ms = (v: number | null) => na(v, fmtMs);

function pointCells(level: CapacityLevel, p: CapacityPoint, faulted: boolean): string[] {
  const effects = [p.duplicates, p.ghosts, p.lost].map((v) => na(v, String)).join(' / ');
  const breaks = !faulted
    ? ''
    : level.breaks === null
      ? 'n/a'
      : level.breaks.length === 0
        ? 'no'
        : level.breaks.join('; ');
  return [
    String(level.level),
    faulted ? 'faulted' : 'no-fault control',
    String(p.okOpsPerSec),
    ms(p.p50),
    ms(p.p95),
    ms(p.p99),
    fmtPct(p.successRate),
    na(p.attemptsPerOp, (v) => v.toFixed(2)),
    effects,
    p.verdict,
    breaks,
  ];
}

/** Every row of the table, with whether the row is the faulted run of a level that breaks away. */
function capacityRows(review: CapacityReview): { cells: string[]; breaks: boolean }[] {
  return review.levels.flatMap((l) => [
    { cells: pointCells(l, l.control, false), breaks: false },
    { cells: pointCells(l, l.faulted, true), breaks: (l.breaks?.length ?? 0) > 0 },
  ]);
}

function title(review: CapacityReview): string {
  return `Capacity of ${review.profile}: ${review.levels.length} level(s) of ${review.unit}`;
}

/** For the terminal: aligned columns, the knee and the rule. */
export function formatCapacityText(review: CapacityReview): string {
  const rows = [[...CAPACITY_HEADERS], ...capacityRows(review).map((r) => r.cells)];
  const widths = CAPACITY_HEADERS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
  return [
    title(review),
    ...lines,
    review.kneeText,
    ...review.notes.map((n) => `note: ${n}`),
    `rule: ${review.ruleText}`,
    '',
  ].join('\n');
}

export function capacityMarkdown(review: CapacityReview): string[] {
  return [
    `### ${escapeMd(title(review))}`,
    '',
    `**${escapeMd(review.kneeText)}**`,
    '',
    ...review.notes.map((n) => `- ${escapeMd(n)}`),
    ...(review.notes.length > 0 ? [''] : []),
    `| ${CAPACITY_HEADERS.join(' | ')} |`,
    `| ${CAPACITY_HEADERS.map((_, i) => (i >= 2 && i <= 7 ? '---:' : '---')).join(' | ')} |`,
    ...capacityRows(review).map((r) => `| ${r.cells.map(escapeMd).join(' | ')} |`),
    '',
    `Rule: ${escapeMd(review.ruleText)}.`,
    '',
  ];
}

export function capacityHtml(review: CapacityReview): string {
  const rows = capacityRows(review).map((r) => ({
    bad: r.breaks,
    cells: r.cells.map((c, i) => (i >= 2 && i <= 7 ? { html: escapeHtml(c), cls: 'num' } : escapeHtml(c))),
  }));
  return `<section id="capacity"><h2>${escapeHtml(title(review))}</h2>
<p><strong>${escapeHtml(review.kneeText)}</strong></p>
${review.notes.map((n) => `<p class="meta">${escapeHtml(n)}</p>`).join('')}
<div class="charts"><figure><figcaption>ok ops/s against load</figcaption>${renderCapacitySvg(review, 'throughput')}</figure><figure><figcaption>p99 against load</figcaption>${renderCapacitySvg(review, 'p99')}</figure></div>
${htmlTable('capacity', CAPACITY_HEADERS, rows)}
<p class="meta">Rule: ${escapeHtml(review.ruleText)}. Each level runs the same plan (seed, mix, timeline) twice: without its faults (the control) and with them.</p>
</section>`;
}
