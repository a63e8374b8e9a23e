// report.html's tables for one profile: thresholds, fault windows, circuit breaker, errors, every metric.
// Times count from the workload's start (`offsetMs` is subtracted from metric times).
import type { History } from '../core/history.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import type { ThresholdResult } from '../measure/thresholds.ts';
import type { Metrics, WindowRetryRate } from '../measure/types.ts';
import { escapeHtml as e } from './escape.ts';
import { describeThreshold, fmtMs, fmtNum, fmtPct, fmtWindowRecovery } from './format.ts';
import { windowHits } from './hits.ts';
import { htmlTable } from './html-table.ts';
import { metricRows } from './metric-rows.ts';
import { failedThresholds, fmtInconclusive, inconclusiveThresholds } from './threshold-view.ts';

const code = (s: string) => `<code>${e(s)}</code>`;
const num = (s: string | number) => ({ html: e(String(s)), cls: 'num' });

/** Each threshold with how it was judged: an interrupted run's were not judged, only measured so far. */
export function thresholdsTable(p: Pick<ProfileReport, 'verdict' | 'control' | 'thresholds'>): string {
  if (p.thresholds.length === 0) return '<p class="meta">no thresholds: the verdict passes by default</p>';
  const failed = new Set(failedThresholds(p));
  const inconclusive = new Set(inconclusiveThresholds(p));
  const row = (t: ThresholdResult): { mark: string; text: string; bad: boolean } => {
    if (p.verdict === 'interrupted') return { mark: '–', text: `not judged: ${fmtNum(t.actual)} so far`, bad: false };
    if (failed.has(t)) return { mark: '✘', text: describeThreshold(t), bad: true };
    if (inconclusive.has(t)) return { mark: '?', text: `inconclusive ${fmtInconclusive(t)}`, bad: true };
    return t.ok
      ? { mark: '✔', text: fmtNum(t.actual), bad: false }
      : { mark: '✘', text: describeThreshold(t), bad: true };
  };
  return htmlTable(
    'thresholds',
    ['', 'threshold', 'actual'],
    p.thresholds.map((t) => {
      const r = row(t);
      return { bad: r.bad, cells: [r.mark, code(t.expr), e(r.text)] };
    }),
    false,
  );
}

/** Fault windows numbered #1.. as on the timeline. */
export function faultWindowsTable(p: ProfileReport, history: History | undefined, offsetMs: number): string {
  const m = p.metrics;
  if (m.recovery.length === 0) return '<p class="meta">no fault windows</p>';
  const at = (ms: number | null) => (ms === null ? 'never removed' : fmtMs(ms - offsetMs));
  const rows = m.recovery.map((w, i) => {
    const stuck = w.status === 'not-recovered' || w.status === 'never-removed';
    const hits = windowHits(
      m.faultWindows.find((f) => f.fault === w.fault),
      history?.faults.find((f) => f.id === w.fault),
    );
    return {
      bad: stuck || hits === 0,
      cells: [
        { html: `#${i + 1}`, head: true },
        code(w.fault),
        e(`${w.seam} / ${w.kind}`),
        num(at(w.onAtMs)),
        num(at(w.offAtMs)),
        num(hits === undefined ? 'not counted' : hits),
        e(fmtWindowRecovery(w)),
        num(fmtMs(w.firstSuccessMs)),
        e(windowRetry(m.retrySuccessByWindow.find((r) => r.fault === w.fault))),
      ],
    };
  });
  const steady = m.steadyState;
  return `${htmlTable('windows', ['#', 'fault', 'seam / kind', 'on', 'off', 'hits', 'recovery', 'first success', 'retry success'], rows)}
<p class="meta">steady state before the first fault: ${steady.rate === null ? 'not measured' : fmtPct(steady.rate)} over ${steady.ops} op(s), target ${fmtPct(steady.target)}</p>`;
}

function windowRetry(r: WindowRetryRate | undefined): string {
  if (!r) return '–';
  return r.rate === null ? `n/a (0 of ${r.ops} retried)` : `${fmtPct(r.rate)} of ${r.retriedOps}`;
}

export function breakerTable(m: Metrics, offsetMs: number): string {
  const intervals = m.breakerOpenIntervals ?? [];
  if (intervals.length === 0 && !m.breakerRejections) return '';
  const rows = intervals.map((i) => ({
    cells: [
      code(i.key),
      num(fmtMs(i.openAtMs - offsetMs)),
      num(i.closeAtMs === null ? 'still open' : fmtMs(i.closeAtMs - offsetMs)),
      num(i.closeAtMs === null ? '–' : fmtMs(i.closeAtMs - i.openAtMs)),
    ],
  }));
  return `<h3>Circuit breaker</h3>${htmlTable('breaker', ['breaker', 'opened', 'closed', 'open for'], rows)}<p class="meta">${m.breakerRejections ?? 0} op(s) failed fast while it was open</p>`;
}

/** Failed attempts by category, each with its codes. */
export function errorsTable(m: Metrics): string {
  const categories = Object.entries(m.errorsByCategory).sort((a, b) => b[1] - a[1]);
  if (categories.length === 0) return '<p class="meta">no failed attempts</p>';
  const codes = Object.entries(m.errorsByCode).sort((a, b) => b[1] - a[1]);
  const list = (entries: Array<[string, number]>) => entries.map(([c, k]) => `${code(c)} ${k}`).join(', ') || '–';
  const rows = categories.map(([category, count]) => ({
    cells: [{ html: e(category), head: true }, num(count), list(codes.filter(([c]) => c.split('.')[0] === category))],
  }));
  const orphans = codes.filter(([c]) => !(c.split('.')[0] in m.errorsByCategory));
  if (orphans.length > 0) rows.push({ cells: [{ html: 'other codes', head: true }, num(''), list(orphans)] });
  return htmlTable('errors', ['category', 'failed attempts', 'by code'], rows);
}

export function metricsTable(m: Metrics): string {
  return htmlTable(
    'metrics',
    ['metric', 'value', 'meaning'],
    metricRows(m).map((r) => ({
      cells: [{ html: code(r.name), head: true }, e(r.text), { html: e(r.describe), cls: 'describe meta' }],
    })),
    false,
  );
}
