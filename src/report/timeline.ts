// The timeline chart: every op a dot at its start (x) and end-to-end latency (y, log scale), coloured by outcome
// and ringed when it took several attempts; below it one tick per attempt (red when it failed) and the circuit
// breaker's open intervals; fault windows shaded over all of it with their hits, and where each recovered.
// Times count from the workload's start. A long run's chart is drawn dense: ops counted in small cells, attempts in
// columns, so report.html and the memory to render it stay bounded however many ops ran. The records are read in
// passes over the run's log (core/history-records.ts), one op at a time: one pass counts them and finds the latency
// range, one draws. Nothing of them is kept but a cell's counts (dense) or at most DOT_LIMIT shapes' text.
import type { AttemptRecord, History, OpGroup, OpRecord } from '../core/history.ts';
import { opGroups } from '../core/history-records.ts';
import type { BreakerInterval } from '../measure/client-guards.ts';
import type { RecoveryWindow } from '../measure/types.ts';
import { escapeXml } from './escape.ts';
import { fmtMs } from './format.ts';
import { fmtHits, windowHits } from './hits.ts';
import { linearScale, logScale, n, svgElement, tickMs } from './svg.ts';

export const TIMELINE_COLORS = {
  ok: '#2e9e44',
  info: '#d18f00',
  fail: '#d1242f',
  fault: '#d1242f',
  recovered: '#0969da',
  breaker: '#8250df',
} as const;

export interface TimelineInput {
  history: History;
  recovery: RecoveryWindow[];
  breaker?: BreakerInterval[];
  /** From history.startMs to the workload's start: x = 0 there. */
  offsetMs: number;
}

/** Above this many ops, only ops that did not go smoothly keep a tooltip (the file stays small). */
const TITLE_LIMIT = 1500;
/**
 * Above this many ops (or attempts), they are counted in cells instead of drawn one by one: at 50,000 ops,
 * rendering a dot each put 70 MB on the run's peak memory for a moment, and each dot is about 200 B of the file.
 */
export const DOT_LIMIT = 5000;
/** A dense chart's cell: CELL units wide (time) and high (latency). */
const CELL = 4;
// Margins leave room for the larger text a phone gets from report.html's CSS (18 units instead of 10).
const W = 640;
const LEFT = 80;
const RIGHT = W - 12;
const ROW = 20;
const FONT = 'font-size="10" fill="#59636e"';

export function renderTimelineSvg(input: TimelineInput): string {
  const { history, recovery, offsetMs } = input;
  const breaker = input.breaker ?? [];
  const start = history.startMs + offsetMs;
  const rel = (t: number) => t - start;
  const tagRows = Math.min(3, history.faults.length);
  const top = 4 + ROW * tagRows;
  const plotH = 220;
  const stripY = top + plotH + 14;
  const breakerY = stripY + ROW + 4;
  const axisY = breakerY + (breaker.length > 0 ? ROW : 0);
  const height = axisY + 30;

  const counted = countRecords(history);
  const x = linearScale(0, Math.max(1, rel(history.endMs)), LEFT, RIGHT, 6);
  const seen = counted.latency;
  const y = logScale(Math.max(0.5, Math.min(1, seen.min)), Math.max(10, seen.max) * 1.15, top + plotH, top);
  const parts: string[] = [];

  history.faults.forEach((f, i) => {
    const x0 = x(rel(f.onMs));
    const x1 = x(rel(f.offMs ?? history.endMs));
    const hits = fmtHits(
      windowHits(
        f,
        recovery.find((r) => r.fault === f.id),
      ),
    );
    const label = `#${i + 1} ${f.id} (${f.kind})${hits ? `, ${hits}` : ''}: ${fmtMs(rel(f.onMs))} → ${f.offMs === undefined ? 'never removed' : fmtMs(rel(f.offMs))}`;
    const row = i % 3;
    parts.push(
      `<rect class="fault" x="${n(x0)}" y="${top}" width="${n(Math.max(1, x1 - x0))}" height="${axisY - top}" fill="${TIMELINE_COLORS.fault}" fill-opacity="0.1"><title>${escapeXml(label)}</title></rect>`,
      `<line x1="${n(x0)}" x2="${n(x0)}" y1="${4 + ROW * row}" y2="${axisY}" stroke="${TIMELINE_COLORS.fault}" stroke-opacity="0.4" stroke-width="0.8"/>`,
      `<text class="fault-tag" x="${n(x0 + 3)}" y="${ROW * (row + 1) - 2}" ${FONT}>#${i + 1}${hits ? ` ${escapeXml(hits)}` : ''}<title>${escapeXml(label)}</title></text>`,
    );
  });

  for (const t of y.ticks) {
    parts.push(
      `<line x1="${LEFT}" x2="${RIGHT}" y1="${n(y(t))}" y2="${n(y(t))}" stroke="#d1d9e0" stroke-width="0.6"/>`,
      `<text x="${LEFT - 4}" y="${n(y(t) + 3.5)}" ${FONT} text-anchor="end">${tickMs(t)}</text>`,
    );
  }

  const stripLabel = `<text x="${LEFT - 4}" y="${stripY + 13}" ${FONT} text-anchor="end">tries</text>`;
  if (counted.ops > DOT_LIMIT || counted.attempts > DOT_LIMIT) {
    const dense = countDense(
      history,
      (op) => [x(rel(op.startMs)), y(op.endMs - op.startMs)],
      (a) => x(rel(a.startMs)),
    );
    parts.push(...denseOps(dense.cells), stripLabel);
    parts.push(
      `<text class="dense-note" x="${RIGHT}" y="${top + 10}" ${FONT} text-anchor="end">${counted.ops} ops, ${counted.attempts} attempts: counted per square, darker = more</text>`,
    );
    parts.push(...denseAttempts(dense.columns, stripY));
  } else {
    const withTitles = counted.ops <= TITLE_LIMIT;
    // At most DOT_LIMIT of each, drawn by start whatever order the records are read in.
    const dots: [number, string][] = [];
    const ticks: [number, string][] = [];
    for (const { op, attempts } of opGroups(history)) {
      for (const a of attempts) {
        const ax = n(x(rel(a.startMs)));
        ticks.push([
          a.startMs,
          `<line class="attempt attempt-${a.ok ? 'ok' : 'failed'}" x1="${ax}" x2="${ax}" y1="${a.ok ? stripY + 6 : stripY}" y2="${stripY + 16}" stroke="${a.ok ? TIMELINE_COLORS.ok : TIMELINE_COLORS.fail}" stroke-width="0.9"/>`,
        ]);
      }
      if (!op) continue;
      const retried = op.attempts > 1;
      const title =
        withTitles || op.outcome !== 'ok' || retried ? `<title>${escapeXml(opTitle(op, attempts, start))}</title>` : '';
      dots.push([
        op.startMs,
        `<circle class="op op-${op.outcome}${retried ? ' retried' : ''}" cx="${n(x(rel(op.startMs)))}" cy="${n(y(op.endMs - op.startMs))}" r="${retried ? 3.6 : 2.8}" fill="${TIMELINE_COLORS[op.outcome]}" fill-opacity="0.8"${retried ? ' stroke="#1f2328" stroke-width="0.9"' : ''}>${title}</circle>`,
      ]);
    }
    parts.push(...byStart(dots), stripLabel, ...byStart(ticks));
  }

  if (breaker.length > 0) {
    parts.push(`<text x="${LEFT - 4}" y="${breakerY + 13}" ${FONT} text-anchor="end">breaker</text>`);
    for (const b of breaker) {
      const x0 = x(b.openAtMs - offsetMs);
      const x1 = x(b.closeAtMs === null ? rel(history.endMs) : b.closeAtMs - offsetMs);
      parts.push(
        `<rect class="breaker-open" x="${n(x0)}" y="${breakerY + 3}" width="${n(Math.max(1, x1 - x0))}" height="12" fill="${TIMELINE_COLORS.breaker}" fill-opacity="0.6"><title>${escapeXml(`breaker ${b.key} open ${fmtMs(b.openAtMs - offsetMs)} → ${b.closeAtMs === null ? 'still open' : fmtMs(b.closeAtMs - offsetMs)}`)}</title></rect>`,
      );
    }
  }

  for (const w of recovery) {
    const off = w.outageOffAtMs ?? w.offAtMs;
    if (off === null) continue;
    if (w.recovered && w.recoveryMs !== null) {
      const xr = n(x(off + w.recoveryMs - offsetMs));
      parts.push(
        `<line class="recovered" x1="${xr}" x2="${xr}" y1="${top}" y2="${top + plotH}" stroke="${TIMELINE_COLORS.recovered}" stroke-dasharray="5 3" stroke-width="1.2"><title>${escapeXml(`${w.fault} recovered ${fmtMs(w.recoveryMs)} after the fault ended`)}</title></line>`,
        `<text class="recovered-label" x="${xr}" y="${top + plotH - 4}" font-size="10" fill="${TIMELINE_COLORS.recovered}" text-anchor="middle">✓ ${escapeXml(tickMs(w.recoveryMs))}</text>`,
      );
    } else if (w.status === 'not-recovered') {
      parts.push(
        `<text class="not-recovered" x="${n(x(off - offsetMs))}" y="${top + plotH - 4}" font-size="10" fill="${TIMELINE_COLORS.fail}">✗ not recovered<title>${escapeXml(`${w.fault}: ${w.note ?? 'not recovered'}`)}</title></text>`,
      );
    }
  }

  parts.push(`<line x1="${LEFT}" x2="${RIGHT}" y1="${axisY}" y2="${axisY}" stroke="#8c959f" stroke-width="0.8"/>`);
  for (const t of x.ticks) {
    parts.push(
      `<line x1="${n(x(t))}" x2="${n(x(t))}" y1="${axisY}" y2="${axisY + 4}" stroke="#8c959f" stroke-width="0.8"/>`,
      `<text x="${n(x(t))}" y="${axisY + 20}" ${FONT} text-anchor="middle">${tickMs(t)}</text>`,
    );
  }
  return svgElement(
    'timeline',
    W,
    height,
    'ops over time (x: start since the workload began, y: end-to-end latency, log scale), attempts, fault windows',
    parts,
  );
}

/** The shapes in order of their record's start (ties as read). */
function byStart(shapes: [number, string][]): string[] {
  return shapes.sort((a, b) => a[0] - b[0]).map(([, svg]) => svg);
}

/** Ops and attempts counted, and the range of the ops' latencies: one pass. */
function countRecords(history: History): { ops: number; attempts: number; latency: { min: number; max: number } } {
  let ops = 0;
  let attempts = 0;
  const latency = { min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
  for (const group of opGroups(history)) {
    attempts += group.attempts.length;
    if (!group.op) continue;
    ops++;
    latency.min = Math.min(latency.min, group.op.endMs - group.op.startMs);
    latency.max = Math.max(latency.max, group.op.endMs - group.op.startMs);
  }
  return { ops, attempts, latency };
}

interface OpCell {
  col: number;
  row: number;
  outcome: OpRecord['outcome'];
  ops: number;
  retried: number;
}

/** Ops counted per cell and outcome, attempts per column: one pass. */
function countDense(
  history: History,
  at: (op: OpRecord) => [number, number],
  xOf: (a: AttemptRecord) => number,
): { cells: Map<string, OpCell>; columns: Map<number, { ok: number; failed: number }> } {
  const cells = new Map<string, OpCell>();
  const columns = new Map<number, { ok: number; failed: number }>();
  for (const { op, attempts } of opGroups(history)) {
    for (const a of attempts) {
      const col = Math.floor(xOf(a) / CELL);
      const column = columns.get(col) ?? { ok: 0, failed: 0 };
      if (a.ok) column.ok++;
      else column.failed++;
      columns.set(col, column);
    }
    if (!op) continue;
    const [cx, cy] = at(op);
    const col = Math.floor(cx / CELL);
    const row = Math.floor(cy / CELL);
    const key = `${col}:${row}:${op.outcome}`;
    const cell = cells.get(key) ?? { col, row, outcome: op.outcome, ops: 0, retried: 0 };
    cell.ops++;
    if (op.attempts > 1) cell.retried++;
    cells.set(key, cell);
  }
  return { cells, columns };
}

/** One square per cell, darker the more ops it holds, titled with its count. */
function denseOps(cells: Map<string, OpCell>): string[] {
  const most = Math.max(1, ...[...cells.values()].map((c) => c.ops));
  // Failures and info drawn last, so they sit on top of the ok cells they share a place with; then by place, so
  // the chart does not depend on the order the records are read in.
  const order = { ok: 0, info: 1, fail: 2 } as const;
  return [...cells.values()]
    .sort((a, b) => order[a.outcome] - order[b.outcome] || a.col - b.col || a.row - b.row)
    .map((c) => {
      const opacity = 0.3 + (0.7 * Math.log1p(c.ops)) / Math.log1p(most);
      const title = `${c.ops} op(s) ${c.outcome}${c.retried > 0 ? `, ${c.retried} retried` : ''}`;
      return `<rect class="op-cell op-cell-${c.outcome}" data-ops="${c.ops}" x="${c.col * CELL}" y="${c.row * CELL}" width="${CELL}" height="${CELL}" fill="${TIMELINE_COLORS[c.outcome]}" fill-opacity="${n(opacity)}"><title>${title}</title></rect>`;
    });
}

/** Per column: a green tick where any attempt went through, a tall red one where any failed. */
function denseAttempts(columns: Map<number, { ok: number; failed: number }>, stripY: number): string[] {
  return [...columns]
    .sort(([a], [b]) => a - b)
    .map(([col, c]) => {
      const ax = n(col * CELL + CELL / 2);
      const failed = c.failed > 0;
      return `<line class="attempt-column${failed ? ' attempt-column-failed' : ''}" data-ok="${c.ok}" data-failed="${c.failed}" x1="${ax}" x2="${ax}" y1="${failed ? stripY : stripY + 6}" y2="${stripY + 16}" stroke="${failed ? TIMELINE_COLORS.fail : TIMELINE_COLORS.ok}" stroke-width="${CELL - 1}"><title>${c.ok + c.failed} attempt(s), ${c.failed} failed</title></line>`;
    });
}

/** "op-00012 create_payment: fail after 3 attempts in 1.2 s at 0.9 s; #1 ✗ DEPENDENCY.UNAVAILABLE 40 ms, ..." */
function opTitle(op: OpRecord, attempts: OpGroup['attempts'], start: number): string {
  const tries = attempts
    .map((a) => `#${a.attempt} ${a.ok ? '✓' : `✗ ${a.errorCode ?? 'failed'}`} ${fmtMs(a.endMs - a.startMs)}`)
    .join(', ');
  const head = `${op.opId} ${op.tool}: ${op.outcome}${op.errorCode ? ` (${op.errorCode})` : ''} after ${op.attempts} attempt(s) in ${fmtMs(op.endMs - op.startMs)}, started at ${fmtMs(op.startMs - start)}`;
  return tries ? `${head}; ${tries}` : head;
}
