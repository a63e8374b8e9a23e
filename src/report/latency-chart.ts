// The latency distribution chart: ops per latency bin (log-spaced bins), with p50, p95 and p99 marked.
import type { LatencySummary } from '../measure/types.ts';
import { escapeXml } from './escape.ts';
import { fmtMs } from './format.ts';
import { extent, logScale, n, svgElement, tickMs } from './svg.ts';

const W = 320;
const H = 140;
const BINS = 24;
const FONT = 'font-size="8" fill="#59636e"';
const MARKS = [
  ['p50', '#0969da'],
  ['p95', '#9a6700'],
  ['p99', '#d1242f'],
] as const;

/** `latencies`: end-to-end op latencies in ms; the marks come from the run's summary (the same numbers as the tables). */
/** `latencies` is read twice (extent, then bins), each a pass over the run's records: nothing of them is kept. */
export function renderLatencySvg(latencies: () => Iterable<number>, summary: LatencySummary): string {
  const left = 40;
  const right = W - 8;
  const top = 40;
  const base = H - 16;
  const seen = extent(latencies());
  const lo = Math.max(0.5, Math.min(seen.min, summary.p50 || 1));
  const hi = Math.max(lo * 10, seen.max, summary.max ?? 0) * 1.05;
  const x = logScale(lo, hi, left, right);
  const counts = new Array<number>(BINS).fill(0);
  const step = (Math.log10(hi) - Math.log10(lo)) / BINS;
  for (const v of latencies()) {
    const i = Math.floor((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / step);
    counts[Math.min(BINS - 1, Math.max(0, i))]++;
  }
  const peak = Math.max(1, ...counts);
  const parts: string[] = [];
  counts.forEach((c, i) => {
    if (c === 0) return;
    const from = lo * 10 ** (i * step);
    const to = lo * 10 ** ((i + 1) * step);
    const h = (c / peak) * (base - top);
    parts.push(
      `<rect class="latency-bin" x="${n(x(from))}" y="${n(base - h)}" width="${n(Math.max(0.8, x(to) - x(from) - 0.6))}" height="${n(h)}" fill="#8c959f"><title>${escapeXml(`${c} op(s) between ${fmtMs(from)} and ${fmtMs(to)}`)}</title></rect>`,
    );
  });
  MARKS.forEach(([key, color], row) => {
    const value = summary[key];
    if (value === null) return;
    const xm = n(x(value));
    parts.push(
      `<line class="mark-${key}" x1="${xm}" x2="${xm}" y1="${top - 4}" y2="${base}" stroke="${color}" stroke-dasharray="3 2" stroke-width="0.9"/>`,
      `<text x="${xm}" y="${10 + 11 * row}" font-size="8" fill="${color}" text-anchor="${x(value) > right - 60 ? 'end' : 'start'}">${key} ${escapeXml(fmtMs(value))}</text>`,
    );
  });
  parts.push(`<line x1="${left}" x2="${right}" y1="${base}" y2="${base}" stroke="#8c959f" stroke-width="0.5"/>`);
  for (const t of x.ticks) {
    parts.push(`<text x="${n(x(t))}" y="${base + 10}" ${FONT} text-anchor="middle">${tickMs(t)}</text>`);
  }
  parts.push(`<text x="${left - 3}" y="${top + 3}" ${FONT} text-anchor="end">${peak} ops</text>`);
  return svgElement(
    'latency',
    W,
    H,
    `op latency distribution (log scale): p50 ${fmtMs(summary.p50)}, p95 ${fmtMs(summary.p95)}, p99 ${fmtMs(summary.p99)}`,
    parts,
  );
}
