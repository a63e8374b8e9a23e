// The retry-success chart: per fault kind, the share of retried ops that still ended ok, with the counts.
import type { KindRetryRate } from '../measure/types.ts';
import { escapeXml } from './escape.ts';
import { fmtPct } from './format.ts';
import { n, svgElement } from './svg.ts';

const W = 320;
const ROW = 16;

export function renderRetryByKindSvg(rates: readonly KindRetryRate[]): string {
  const left = 96;
  const barW = 130;
  const parts: string[] = [];
  rates.forEach((r, i) => {
    const y = 6 + i * ROW;
    const text = r.rate === null ? 'n/a (0 retried)' : `${fmtPct(r.rate)} (${r.recoveredOps}/${r.retriedOps})`;
    const color = r.rate === null ? '#8c959f' : r.rate >= 0.99 ? '#2e9e44' : r.rate >= 0.5 ? '#d18f00' : '#d1242f';
    parts.push(
      `<text x="${left - 4}" y="${y + 8}" font-size="8" fill="#1f2328" text-anchor="end">${escapeXml(clip(r.kind, 22))}<title>${escapeXml(r.kind)}</title></text>`,
      `<rect x="${left}" y="${y}" width="${barW}" height="10" fill="#eff2f5"/>`,
      r.rate === null
        ? ''
        : `<rect class="retry-bar" x="${left}" y="${y}" width="${n(barW * r.rate)}" height="10" fill="${color}"/>`,
      `<text x="${left + barW + 4}" y="${y + 8}" font-size="8" fill="#59636e">${escapeXml(text)}</text>`,
    );
  });
  return svgElement(
    'retry-by-kind',
    W,
    Math.max(1, rates.length) * ROW + 8,
    'retry success per fault kind: retried ops that ended ok',
    parts,
  );
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
