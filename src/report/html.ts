// report.html: one self-contained static page (inline CSS and SVG, no scripts, no external assets) that reads
// on a desktop and on a phone: an overview of every profile, then one section per profile.
import type { History } from '../core/history.ts';
import { historyOf } from '../core/history-key.ts';
import { METRICS } from '../measure/metric-table.ts';
import type { BaselineComparison, ProfileReport, RunReport } from '../measure/run-report.ts';
import { capacityHtml } from './capacity-table.ts';
import { escapeHtml as e } from './escape.ts';
import { fmtMs, fmtRetry, worstRecovery } from './format.ts';
import { anchor, profileSectionPieces } from './html-profile.ts';
import { htmlTable, type Row } from './html-table.ts';
import { MATRIX_CSS, matrixHtml } from './matrix-html.ts';
import { formatMetricValue } from './metric-rows.ts';
import { notJudgedOrOk, thresholdCount } from './threshold-view.ts';
import { profileBadge, tallyText, verdictStyle } from './verdict-style.ts';

const CSS = `
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1000px;color:#1f2328;padding:8px 12px;overflow-wrap:break-word}
h1,h2{margin:.3em 0;line-height:1.2}h2{font-size:1.3em}h3{font-size:1.05em;margin:1.1em 0 .3em}
.meta{color:#59636e}
.verdict{display:inline-block;padding:.1em .6em;border-radius:1em;font-weight:600;color:#fff;font-size:.8em;vertical-align:middle;white-space:nowrap}
section{border:1px solid #d1d9e0;border-radius:8px;padding:10px 12px;margin:16px 0}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.4rem 0;width:100%}
td,th{border:1px solid #d1d9e0;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.bad td,tr.bad th{background:#ffebe9}
code,pre{font:.88em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border-radius:6px;padding:.6em .8em;white-space:pre-wrap;overflow-wrap:anywhere}
.failed{background:#ffebe9;border:1px solid #ffcecb;border-radius:6px;padding:.5em .8em .5em 1.6em}
.inconclusive{background:#fbefff;border:1px solid #e8d5ff;border-radius:6px;padding:.5em .8em .5em 1.6em}
p.failed{padding-left:.8em}.control{font-weight:600}
ul.ops{margin:0;padding-left:1.1em}
.legend{font-size:.85em;color:#59636e;margin:.2em 0}.legend span{margin-right:.9em;display:inline-block}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-1px;border-radius:50%}
svg.chart{display:block;width:100%;height:auto}svg.timeline{max-width:900px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px}
figure{margin:0}figcaption{font-weight:600;font-size:.95em;margin:.8em 0 .2em}
details summary{cursor:pointer;margin:.8em 0 .3em;font-weight:600}
${MATRIX_CSS}
@media (max-width:640px){
body{font-size:14px;padding:6px 8px}section{padding:8px}td.describe{display:none}
table.cards thead{display:none}table.cards,table.cards tbody,table.cards tr,table.cards td,table.cards th{display:block;width:100%}
table.cards tr{border:1px solid #d1d9e0;border-radius:6px;margin:0 0 .5em;overflow:hidden}
table.cards td,table.cards th{border:0;border-top:1px solid #eff2f5;text-align:left}
table.cards td[data-label]::before,table.cards th[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#59636e}
svg.timeline text{font-size:18px}svg.timeline circle.op{r:4.5px}svg.timeline circle.retried{r:5.5px}
svg.latency text,svg.retry-by-kind text{font-size:10.5px}
}
`;

export interface HtmlOptions {
  /** Where report.json is, for the replay command. */
  reportPath?: string;
}

export function renderHtml(run: RunReport, histories: Record<string, History>, options: HtmlOptions = {}): string {
  return [...htmlPieces(run, histories, options)].join('');
}

/** report.html in pieces, each profile's worked out as it is taken (html-profile.ts), for a writer that streams. */
export function* htmlPieces(
  run: RunReport,
  histories: Record<string, History>,
  options: HtmlOptions = {},
): Generator<string> {
  const title = `Faultline ${run.verdict}: ${run.profiles.map((p) => p.name).join(', ')}`;
  const style = verdictStyle(run.verdict);
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)}</title><style>${CSS}</style></head>
<body>
<h1>Faultline <span class="verdict" style="background:${style.css}">${e(style.label)}</span></h1>
<p class="meta">seed ${run.seed} · started ${e(run.startedAt)} · ${e(fmtMs(run.durationMs))} · faultline ${e(run.faultline)} · ${run.profiles.length} profile(s): ${e(tallyText(run.profiles))}</p>
<p class="meta">Times count from each workload's start (set-up excluded).</p>
${run.baseline ? baselineBlock(run.baseline) : ''}
${run.capacity ? capacityHtml(run.capacity) : ''}
${run.matrix ? matrixHtml(run.matrix) : ''}
${htmlTable('overview', ['profile', 'verdict', 'policy', 'ops', 'retry success', 'dup / ghost / lost', 'worst recovery', 'thresholds'], run.profiles.map(overviewRow))}
`;
  // The overview, then one section per profile (and pairing, in a run of several).
  for (const [i, p] of run.profiles.entries()) {
    if (i > 0) yield '\n';
    yield* profileSectionPieces(p, historyOf(histories, p), options.reportPath);
  }
  yield `
</body></html>
`;
}

function overviewRow(p: ProfileReport): Row {
  const badge = profileBadge(p);
  const m = p.metrics;
  const effects = ['duplicate_effects', 'ghost_effects', 'lost_effects']
    .map((k) => formatMetricValue(METRICS[k], METRICS[k].get(m)).replace(/ \(.*\)$/, ''))
    .join(' / ');
  const count = thresholdCount(p);
  return {
    bad: p.verdict !== 'pass',
    cells: [
      {
        html: `<a href="#${e(anchor(p))}">${e(p.name)}</a>${p.pairing ? ` <code>${e(p.pairing)}</code>` : ''}`,
        head: true,
      },
      `<span class="verdict" style="background:${badge.css}">${e(badge.label)}</span>`,
      e(p.policy),
      { html: String(m.ops), cls: 'num' },
      e(fmtRetry(m)),
      e(effects),
      e(worstRecovery(m.recovery)),
      notJudgedOrOk(p) ? e(count) : `<strong>${e(count)}</strong>`,
    ],
  };
}

function baselineBlock(b: BaselineComparison): string {
  const rows = b.findings.map((f) => ({
    bad: !f.ok,
    cells: [f.ok ? '~' : '✘', `${e(f.profile)} <span class="meta">(${e(f.policy)})</span>`, e(f.kind), e(f.message)],
  }));
  return `<h2>Baseline <span class="verdict" style="background:${verdictStyle(b.ok ? 'pass' : 'fail').css}">${b.ok ? 'NO REGRESSION' : 'REGRESSED'}</span></h2>
<p class="meta">compared with <code>${e(b.file)}</code></p>
${rows.length === 0 ? '<p class="meta">every threshold holds and no metric moved beyond its tolerance</p>' : htmlTable('baseline', ['', 'profile', 'finding', 'detail'], rows)}`;
}
