// report.html: one self-contained static page (inline CSS and SVG, no scripts, no external assets).
import type { History } from '../core/history.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import { escapeHtml as e } from './escape.ts';
import { describeThreshold, fmtMs, fmtNum, fmtPct, fmtRetry, fmtWindowRecovery, worstRecovery } from './format.ts';
import { metricRows } from './metric-rows.ts';
import { renderTimelineSvg, TIMELINE_COLORS } from './timeline.ts';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:960px;color:#1f2328;padding:0 1rem}
h1,h2{margin:.2em 0}.meta{color:#59636e}
.verdict{display:inline-block;padding:.1em .6em;border-radius:1em;font-weight:600;color:#fff;font-size:.85em;vertical-align:middle}
.pass{background:${TIMELINE_COLORS.ok}}.fail{background:${TIMELINE_COLORS.fail}}
section{border:1px solid #d1d9e0;border-radius:8px;padding:1rem 1.2rem;margin:1.2rem 0}
table{border-collapse:collapse;margin:.6rem 0}td,th{border:1px solid #d1d9e0;padding:.25em .6em;text-align:left}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.bad td{background:#ffebe9}code{font-size:.92em}.legend span{margin-right:1em}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-1px}
`;

export function renderHtml(run: RunReport, histories: Record<string, History>): string {
  const title = `Faultline ${run.verdict}: ${run.profiles.map((p) => p.name).join(', ')}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)}</title><style>${CSS}</style></head>
<body>
<h1>Faultline <span class="verdict ${run.verdict}">${run.verdict.toUpperCase()}</span></h1>
<p class="meta">seed ${run.seed} · started ${e(run.startedAt)} · ${e(fmtMs(run.durationMs))} · faultline ${e(run.faultline)}</p>
<table><tr><th>profile</th><th>policy</th><th>verdict</th><th>ops</th><th>retry success</th><th>worst recovery</th></tr>
${run.profiles.map(overviewRow).join('\n')}
</table>
${run.profiles.map((p) => section(p, histories[p.name])).join('\n')}
</body></html>
`;
}

function overviewRow(p: ProfileReport): string {
  return `<tr><td><a href="#${e(anchor(p.name))}">${e(p.name)}</a></td><td>${e(p.policy)}</td><td><span class="verdict ${p.verdict}">${p.verdict}</span></td><td class="num">${p.metrics.ops}</td><td>${e(fmtRetry(p.metrics))}</td><td>${e(worstRecovery(p.metrics.recovery))}</td></tr>`;
}

function section(p: ProfileReport, history: History | undefined): string {
  const m = p.metrics;
  const rows = metricRows(m);
  const errors = Object.entries(m.errorsByCategory);
  return `<section id="${e(anchor(p.name))}">
<h2>${e(p.name)} <span class="verdict ${p.verdict}">${p.verdict.toUpperCase()}</span></h2>
<p class="meta">${p.description ? `${e(p.description)} · ` : ''}seed ${p.seed} · policy <code>${e(p.policy)}</code> · decision log <code>${e(p.decisionLogSha256.slice(0, 16))}</code></p>
${p.error ? `<p><strong>Error:</strong> ${e(p.error)}</p>` : ''}
${history ? `${renderTimelineSvg(history, m.recovery)}\n<p class="legend">${legend()}</p>` : '<p class="meta">no history recorded</p>'}
<h3>Thresholds</h3>
${p.thresholds.length === 0 ? '<p class="meta">none</p>' : `<table><tr><th></th><th>threshold</th><th>actual</th></tr>${p.thresholds.map((t) => `<tr class="${t.ok ? 'good' : 'bad'}"><td>${t.ok ? '✔' : '✘'}</td><td><code>${e(t.expr)}</code></td><td>${e(t.ok ? fmtNum(t.actual) : describeThreshold(t))}</td></tr>`).join('')}</table>`}
<h3>Metrics</h3>
<table>${rows.map((r) => `<tr${r.headline ? ' class="headline"' : ''}><th><code>${e(r.name)}</code></th><td>${e(r.text)}</td><td class="meta">${e(r.describe)}</td></tr>`).join('')}</table>
<h3>Recovery per fault window</h3>
${
  m.recovery.length === 0
    ? '<p class="meta">no fault windows</p>'
    : `<table><tr><th>fault</th><th>kind</th><th>on</th><th>off</th><th>recovery</th><th>first success</th><th>retry success</th></tr>${m.recovery.map((w) => `<tr class="${w.status === 'not-recovered' || w.status === 'never-removed' ? 'bad' : ''}"><td>${e(w.fault)}</td><td>${e(w.kind)}</td><td class="num">${e(fmtMs(w.onAtMs))}</td><td class="num">${e(fmtMs(w.offAtMs))}</td><td class="num">${e(fmtWindowRecovery(w))}</td><td class="num">${e(fmtMs(w.firstSuccessMs))}</td><td>${e(windowRetry(m.retrySuccessByWindow.find((r) => r.fault === w.fault)))}</td></tr>`).join('')}</table>
<p class="meta">steady state: ${m.steadyState.rate === null ? 'not measured' : fmtPct(m.steadyState.rate)} over ${m.steadyState.ops} op(s), target ${fmtPct(m.steadyState.target)}</p>`
}
${errors.length === 0 ? '' : `<h3>Errors (failed attempts)</h3><table><tr><th>category</th><th>count</th></tr>${errors.map(([k, v]) => `<tr><td>${e(k)}</td><td class="num">${v}</td></tr>`).join('')}</table>`}
${p.notes.length === 0 ? '' : `<h3>Notes</h3><ul>${p.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul>`}
</section>`;
}

function windowRetry(r: { retriedOps: number; rate: number | null } | undefined): string {
  if (!r) return '–';
  return r.rate === null ? 'n/a (0 retried)' : `${fmtPct(r.rate)} of ${r.retriedOps}`;
}

function legend(): string {
  const item = (color: string, label: string) =>
    `<span><i class="swatch" style="background:${color}"></i>${label}</span>`;
  return [
    item(TIMELINE_COLORS.ok, 'ok'),
    item(TIMELINE_COLORS.info, 'info'),
    item(TIMELINE_COLORS.fail, 'fail'),
    item('rgba(209,36,47,.15)', 'fault window'),
    '<span>dashed line: recovered</span>',
  ].join('');
}

function anchor(name: string): string {
  return `profile-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
