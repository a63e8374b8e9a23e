// An inline SVG timeline: ops per time bin stacked by outcome (by start time), fault windows shaded, and a
// dashed line where each window recovered.
import type { History } from '../core/history.ts';
import type { RecoveryWindow } from '../measure/types.ts';
import { escapeXml } from './escape.ts';

export const TIMELINE_COLORS = { ok: '#2e9e44', info: '#e0a100', fail: '#d1242f', fault: '#d1242f' } as const;

export interface TimelineOptions {
  width?: number;
  height?: number;
  bins?: number;
}

export function renderTimelineSvg(history: History, recovery: RecoveryWindow[], options: TimelineOptions = {}): string {
  const width = options.width ?? 900;
  // One label row per fault (up to 4) above the plot, so overlapping windows keep readable labels.
  const labelRows = Math.min(4, Math.max(1, history.faults.length));
  const height = (options.height ?? 160) + 12 * (labelRows - 1);
  const pad = { left: 36, right: 10, top: 6 + 12 * labelRows, bottom: 22 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const span = Math.max(1, history.endMs - history.startMs);
  const bins = Math.max(1, Math.min(options.bins ?? 120, history.ops.length || 1));
  const x = (t: number) => pad.left + (Math.min(Math.max(t - history.startMs, 0), span) / span) * plotW;

  const counts = Array.from({ length: bins }, () => ({ ok: 0, info: 0, fail: 0 }));
  for (const op of history.ops) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor(((op.startMs - history.startMs) / span) * bins)));
    counts[i][op.outcome]++;
  }
  const peak = Math.max(1, ...counts.map((c) => c.ok + c.info + c.fail));
  const binW = plotW / bins;
  const parts: string[] = [];

  history.faults.forEach((f, row) => {
    const x0 = x(f.onMs);
    const x1 = x(f.offMs ?? history.endMs);
    const label = escapeXml(`${f.id} (${f.kind})`);
    parts.push(
      `<rect class="fault" x="${n(x0)}" y="${pad.top}" width="${n(Math.max(1, x1 - x0))}" height="${plotH}" fill="${TIMELINE_COLORS.fault}" fill-opacity="0.12"><title>${label}</title></rect>`,
      `<text x="${n(x0 + 2)}" y="${14 + 12 * (row % labelRows)}" font-size="10" fill="#555">${label}</text>`,
    );
  });
  counts.forEach((c, i) => {
    let y = pad.top + plotH;
    for (const outcome of ['ok', 'info', 'fail'] as const) {
      if (c[outcome] === 0) continue;
      const h = (c[outcome] / peak) * plotH;
      y -= h;
      parts.push(
        `<rect class="op-${outcome}" x="${n(pad.left + i * binW)}" y="${n(y)}" width="${n(Math.max(0.5, binW - 0.5))}" height="${n(h)}" fill="${TIMELINE_COLORS[outcome]}"><title>${c[outcome]} ${outcome}</title></rect>`,
      );
    }
  });
  for (const w of recovery) {
    if (w.offAtMs === null || w.recoveryMs === null) continue;
    const xr = x(history.startMs + w.offAtMs + w.recoveryMs);
    parts.push(
      `<line class="recovered" x1="${n(xr)}" x2="${n(xr)}" y1="${pad.top}" y2="${pad.top + plotH}" stroke="#0969da" stroke-dasharray="4 3"><title>${escapeXml(`${w.fault} recovered after ${w.recoveryMs} ms`)}</title></line>`,
    );
  }
  const axisY = pad.top + plotH;
  parts.push(
    `<line x1="${pad.left}" x2="${pad.left + plotW}" y1="${axisY}" y2="${axisY}" stroke="#888"/>`,
    `<text x="${pad.left}" y="${height - 6}" font-size="10" fill="#555">0 s</text>`,
    `<text x="${pad.left + plotW}" y="${height - 6}" font-size="10" fill="#555" text-anchor="end">${(span / 1000).toFixed(1)} s</text>`,
    `<text x="${pad.left - 4}" y="${pad.top + 8}" font-size="10" fill="#555" text-anchor="end">${peak}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="ops over time by outcome, fault windows shaded">${parts.join('')}</svg>`;
}

function n(v: number): string {
  return String(Math.round(v * 10) / 10);
}
