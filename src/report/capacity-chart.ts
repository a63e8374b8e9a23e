// The capacity chart: ok ops/s or p99 (log scale) against the load level, the no-fault control and the faulted
// run as two lines, the knee marked. Levels sit evenly spaced in the order tried (1, 4, 16, 64 read as steps); a
// point with nothing to measure (n/a) is left out, never drawn as 0.
import type { CapacityPoint, CapacityReview } from '../measure/capacity.ts';
import { escapeXml } from './escape.ts';
import { fmtMs } from './format.ts';
import { linearScale, logScale, n, svgElement, tickMs } from './svg.ts';

type Measure = 'throughput' | 'p99';

const W = 320;
const H = 170;
const FONT = 'font-size="8" fill="#59636e"';
const SERIES = [
  { key: 'control', label: 'no-fault control', color: '#57606a', dash: ' stroke-dasharray="4 2"' },
  { key: 'faulted', label: 'faulted', color: '#d1242f', dash: '' },
] as const;

const plotted = (p: CapacityPoint, m: Measure) => (m === 'throughput' ? (p.ops > 0 ? p.okOpsPerSec : null) : p.p99);
const fmt = (v: number, m: Measure) => (m === 'throughput' ? `${v} ok ops/s` : fmtMs(v));

export function renderCapacitySvg(review: CapacityReview, measure: Measure): string {
  const left = 42;
  const right = W - 10;
  const top = 24;
  const base = H - 26;
  const levels = review.levels;
  const values = levels.flatMap((l) => [plotted(l.control, measure), plotted(l.faulted, measure)]);
  const present = values.filter((v): v is number => v !== null);
  const step = levels.length > 1 ? (right - left) / (levels.length - 1) : 0;
  const x = (i: number) => (levels.length > 1 ? left + i * step : (left + right) / 2);
  const hi = Math.max(1, ...present) * 1.1;
  const y =
    measure === 'throughput'
      ? linearScale(0, hi, base, top)
      : logScale(Math.max(0.5, Math.min(...present, hi) * 0.8), hi, base, top);
  const parts: string[] = [];
  for (const t of y.ticks) {
    const label = measure === 'throughput' ? String(t) : tickMs(t);
    parts.push(
      `<line x1="${left}" x2="${right}" y1="${n(y(t))}" y2="${n(y(t))}" stroke="#eff2f5" stroke-width="0.6"/>`,
      `<text x="${left - 3}" y="${n(y(t) + 3)}" ${FONT} text-anchor="end">${escapeXml(label)}</text>`,
    );
  }
  levels.forEach((l, i) => {
    parts.push(`<text x="${n(x(i))}" y="${base + 10}" ${FONT} text-anchor="middle">${l.level}</text>`);
  });
  parts.push(
    `<text x="${n((left + right) / 2)}" y="${H - 4}" ${FONT} text-anchor="middle">${escapeXml(review.unit)}</text>`,
    `<line x1="${left}" x2="${right}" y1="${base}" y2="${base}" stroke="#8c959f" stroke-width="0.5"/>`,
  );
  const knee = review.knee === null ? -1 : levels.findIndex((l) => l.level === review.knee?.level);
  if (knee >= 0) {
    parts.push(
      `<line class="knee" x1="${n(x(knee))}" x2="${n(x(knee))}" y1="${top - 6}" y2="${base}" stroke="#9a6700" stroke-dasharray="3 2" stroke-width="0.9"/>`,
      `<text x="${n(x(knee) + 3)}" y="${top - 8}" font-size="8" fill="#9a6700">knee</text>`,
    );
  }
  SERIES.forEach((s, row) => {
    const points = levels
      .map((l, i) => ({ i, level: l.level, v: plotted(l[s.key], measure) }))
      .filter((p): p is { i: number; level: number; v: number } => p.v !== null);
    if (points.length > 1) {
      const d = points.map((p, k) => `${k === 0 ? 'M' : 'L'}${n(x(p.i))} ${n(y(p.v))}`).join(' ');
      parts.push(
        `<path class="series-${s.key}" d="${d}" fill="none" stroke="${s.color}" stroke-width="1.2"${s.dash}/>`,
      );
    }
    for (const p of points) {
      parts.push(
        `<circle class="point-${s.key}" cx="${n(x(p.i))}" cy="${n(y(p.v))}" r="2.2" fill="${s.color}"><title>${escapeXml(`${s.label} at ${p.level}: ${fmt(p.v, measure)}`)}</title></circle>`,
      );
    }
    parts.push(
      `<text x="${right - 4 - row * 70}" y="10" font-size="8" fill="${s.color}" text-anchor="end">${escapeXml(s.label)}</text>`,
    );
  });
  const what = measure === 'throughput' ? 'ok ops per second' : 'op latency p99 (log scale)';
  return svgElement(
    `capacity capacity-${measure}`,
    W,
    H,
    `${what} against ${review.unit}: no-fault control and faulted run${knee >= 0 ? `, knee at ${review.knee?.level}` : ', no knee'}`,
    parts,
  );
}
