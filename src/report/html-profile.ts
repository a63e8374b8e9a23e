// One profile's section of report.html: what failed first, how to reproduce it, then the pictures (timeline,
// latency, retry success per fault kind) and the tables behind them.
import type { History } from '../core/history.ts';
import { opLatencies } from '../core/history-records.ts';
import type { ProfileReport } from '../measure/run-report.ts';
import { escapeHtml as e } from './escape.ts';
import { controlPhrase, describeThreshold, faultsOffPhrase, interruptedText } from './format.ts';
import { effectsTable } from './html-effects.ts';
import { breakerTable, errorsTable, faultWindowsTable, metricsTable, thresholdsTable } from './html-tables.ts';
import { renderLatencySvg } from './latency-chart.ts';
import { replayCommands } from './replay.ts';
import { renderRetryByKindSvg } from './retry-chart.ts';
import { failedThresholds, fmtInconclusive, inconclusiveThresholds } from './threshold-view.ts';
import { workloadOffsetMs } from './time-base.ts';
import { renderTimelineSvg, TIMELINE_COLORS } from './timeline.ts';
import { profileBadge } from './verdict-style.ts';

/**
 * The section in pieces, each worked out only when the one before it was taken: the timeline, the latency chart and
 * the effects table each pass over the run's records once, so a writer can let the event loop run between them.
 */
export function* profileSectionPieces(
  p: ProfileReport,
  history: History | undefined,
  reportPath?: string,
): Generator<string> {
  const m = p.metrics;
  const offsetMs = workloadOffsetMs(p, history);
  const badge = profileBadge(p);
  const control = controlPhrase(p) ?? faultsOffPhrase(p);
  const failed = failedThresholds(p);
  const inconclusive = inconclusiveThresholds(p);
  const commands = replayCommands(p, reportPath);
  yield `<section id="${e(anchor(p))}">
<h2>${e(p.name)}${p.pairing ? ` <code>${e(p.pairing)}</code>` : ''} <span class="verdict" style="background:${badge.css}">${e(badge.label)}</span></h2>
${control ? `<p class="control">${e(control)}</p>` : ''}
<p class="meta">${p.description ? `${e(p.description)} · ` : ''}seed ${p.seed} · policy <code>${e(p.policy)}</code>${p.control ? ' (negative control)' : ''} · decision log <code>${e(p.decisionLogSha256.slice(0, 16))}</code></p>
${p.error ? `<p class="failed"><strong>Error:</strong> ${e(p.error)}</p>` : ''}
${p.verdict === 'interrupted' ? `<p class="meta"><strong>Interrupted:</strong> ${e(interruptedText(p))}</p>` : ''}
${failed.length > 0 ? `<ul class="failed">${failed.map((t) => `<li>✘ <code>${e(t.expr)}</code>: ${e(describeThreshold(t))}</li>`).join('')}</ul>` : ''}
${inconclusive.length > 0 ? `<ul class="inconclusive">${inconclusive.map((t) => `<li>? inconclusive ${e(fmtInconclusive(t))}</li>`).join('')}</ul>` : ''}
${commands.length > 0 ? `<p class="meta">Reproduce:</p><pre class="replay">${commands.map(e).join('\n')}</pre>` : ''}
<h3>Timeline</h3>
`;
  yield history
    ? `${renderTimelineSvg({ history, recovery: m.recovery, breaker: m.breakerOpenIntervals, offsetMs })}
<p class="legend">${legend()}</p>`
    : '<p class="meta">no history recorded: the timeline needs history.jsonl</p>';
  yield `
<div class="charts">
<figure><figcaption>Latency per op (end to end, retries included)</figcaption>${renderLatencySvg(
    () => (history ? opLatencies(history) : []),
    m.latencyMs,
  )}</figure>
<figure><figcaption>Retry success per fault kind</figcaption>${
    m.retrySuccessByKind.length > 0
      ? renderRetryByKindSvg(m.retrySuccessByKind)
      : '<p class="meta">no fault window, so no fault kind</p>'
  }</figure>
</div>
<h3>Fault windows</h3>
${faultWindowsTable(p, history, offsetMs)}
<h3>Effects</h3>
`;
  yield effectsTable(m, history, (history?.startMs ?? 0) + offsetMs);
  yield `
${breakerTable(m, offsetMs)}
<h3>Errors by category and code</h3>
${errorsTable(m)}
<h3>Thresholds</h3>
${thresholdsTable(p)}
<details><summary>Every metric</summary>${metricsTable(m)}</details>
${p.notes.length === 0 ? '' : `<h3>Notes</h3><ul>${p.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul>`}
</section>`;
}

function legend(): string {
  const dot = (color: string, label: string) =>
    `<span><i class="swatch" style="background:${color}"></i>${label}</span>`;
  return [
    dot(TIMELINE_COLORS.ok, 'op ok'),
    dot(TIMELINE_COLORS.info, 'op info (indeterminate)'),
    dot(TIMELINE_COLORS.fail, 'op fail'),
    '<span>ringed: retried · ticks below: attempts (red = failed)</span>',
    dot('rgba(209,36,47,.2)', 'fault window #n (see Fault windows)'),
    `<span style="color:${TIMELINE_COLORS.recovered}">┆ recovered</span>`,
    dot(TIMELINE_COLORS.breaker, 'breaker open'),
  ].join(' ');
}

/** A profile's section id; a run in several pairings has a section per profile and pairing. */
export function anchor(p: { name: string; pairing?: string }): string {
  const id = p.pairing ? `${p.name}-${p.pairing}` : p.name;
  return `profile-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
