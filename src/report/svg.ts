// Small helpers the SVG charts share: rounding, scales, axis ticks, the <svg> element. Charts scale with the
// page (viewBox, width 100%), so their coordinates are in viewBox units, never pixels.
import { escapeXml } from './escape.ts';

/** Smallest and largest of many values without spreading them into arguments (runs can have 100k ops). */
export function extent(values: Iterable<number>): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** A coordinate with one decimal, as short text. */
export function n(v: number): string {
  return String(Math.round(v * 10) / 10);
}

export function svgElement(cls: string, width: number, height: number, label: string, body: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart ${cls}" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet" role="img" aria-label="${escapeXml(label)}"><title>${escapeXml(label)}</title>${body.join('')}</svg>`;
}

export interface Scale {
  (value: number): number;
  ticks: number[];
}

/** Linear from [d0, d1] to [r0, r1], clamped, with about `count` round ticks. */
export function linearScale(d0: number, d1: number, r0: number, r1: number, count = 5): Scale {
  const span = d1 - d0 || 1;
  const scale = ((v: number) => r0 + ((Math.min(Math.max(v, d0), d1) - d0) / span) * (r1 - r0)) as Scale;
  const step = niceStep(span / count);
  const ticks: number[] = [];
  for (let t = Math.ceil(d0 / step) * step; t <= d1 + step * 1e-9; t += step) ticks.push(Number(t.toFixed(6)));
  scale.ticks = ticks;
  return scale;
}

/** Log10 from [d0, d1] (both > 0) to [r0, r1], clamped, with ticks at powers of ten (and 2, 3, 5 × on short ranges). */
export function logScale(d0: number, d1: number, r0: number, r1: number): Scale {
  const lo = Math.log10(d0);
  const hi = Math.max(Math.log10(d1), lo + 1e-9);
  const scale = ((v: number) =>
    r0 + ((Math.log10(Math.min(Math.max(v, d0), d1)) - lo) / (hi - lo)) * (r1 - r0)) as Scale;
  const ticks: number[] = [];
  for (let p = Math.floor(lo); p <= Math.ceil(hi); p++) {
    for (const m of hi - lo > 2 ? [1] : hi - lo > 1 ? [1, 3] : [1, 2, 5]) {
      const t = m * 10 ** p;
      if (t >= d0 * 0.999 && t <= d1 * 1.001) ticks.push(t);
    }
  }
  scale.ticks = ticks;
  return scale;
}

function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** "250 ms", "1.5 s", "12 s": a tick label in few characters. */
export function tickMs(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${Number(ms.toFixed(1))} ms`;
  return `${Number((ms / 1000).toFixed(2))} s`;
}
