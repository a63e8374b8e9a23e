// `faultline run --verbose`'s summary: one block per profile (its headline numbers, calibration, breaker),
// failing and inconclusive thresholds spelled out, a negative control labelled as one, and a tally at the end.

import type { History } from '../core/history.ts';
import { historyOf } from '../core/history-key.ts';
import type { BaselineComparison, RunReport } from '../measure/run-report.ts';
import {
  controlPhrase,
  describeThreshold,
  faultsOffPhrase,
  fmtBreaker,
  fmtCalibration,
  fmtMs,
  fmtThresholdActual,
  interruptedText,
} from './format.ts';
import { metricRows } from './metric-rows.ts';
import { failedThresholds, fmtInconclusive, inconclusiveThresholds } from './threshold-view.ts';
import { workloadOffsetMs } from './time-base.ts';
import { profileBadge, tallyText, verdictStyle } from './verdict-style.ts';

export function formatConsoleDetail(
  run: RunReport,
  options: { histories?: Record<string, History> },
  paint: (code: number, s: string) => string,
): string {
  const badge = (s: { label: string; ansi: number }) => paint(s.ansi, s.label);
  const dim = (s: string) => paint(2, s);

  const lines = [
    `Faultline ${run.faultline}  seed ${run.seed}  ${run.profiles.length} profile(s)  ${fmtMs(run.durationMs)}  ${badge(verdictStyle(run.verdict))}`,
  ];
  for (const p of run.profiles) {
    const m = p.metrics;
    const control = controlPhrase(p) ?? faultsOffPhrase(p);
    const calibration = fmtCalibration(p);
    lines.push(
      `${badge(profileBadge(p))} ${p.name}${p.pairing ? ` [${p.pairing}]` : ''} ${dim(`(${p.policy}${p.control ? ' control' : ''}, seed ${p.seed}${calibration ? `, ${calibration}` : ''})`)}`,
    );
    if (control) lines.push(`  ${paint(profileBadge(p).ansi, control)}`);
    if (p.verdict === 'interrupted') lines.push(`  ${paint(90, interruptedText(p))}`);
    lines.push(...wrap(metricRows(m, { headline: true }).map((r) => `${r.name} ${r.text}`)));
    const breaker = fmtBreaker(m, workloadOffsetMs(p, historyOf(options.histories, p)));
    if (breaker) lines.push(`  circuit breaker ${breaker}`);
    if (p.error) lines.push(`  ${paint(31, 'error')} ${p.error.split('\n', 1)[0]}`);
    for (const t of failedThresholds(p)) lines.push(`  ${paint(31, '✗')} ${t.expr}: ${describeThreshold(t)}`);
    for (const t of inconclusiveThresholds(p)) lines.push(`  ${paint(35, '?')} inconclusive ${fmtInconclusive(t)}`);
    // A relative bound that held is shown too: the control's value is part of the result.
    for (const t of p.thresholds.filter((t) => t.ok && t.relative))
      lines.push(`  ${paint(32, '✓')} ${t.expr}: ${fmtThresholdActual(t)}`);
  }
  if (run.baseline) lines.push(...baselineLines(run.baseline, paint));
  lines.push(`${run.profiles.length} profile(s): ${tallyText(run.profiles)}`);
  return `${lines.join('\n')}\n`;
}

export function baselineLines(b: BaselineComparison, paint: (code: number, s: string) => string): string[] {
  const out = [`baseline ${b.file}: ${b.ok ? paint(32, 'no regression') : paint(31, 'REGRESSED')}`];
  for (const f of b.findings) {
    out.push(`  ${f.ok ? paint(33, '~') : paint(31, '✗')} ${f.profile} (${f.policy}) ${f.kind}: ${f.message}`);
  }
  return out;
}

/** Headline metrics as `name value` pairs, two spaces apart, in lines of about 110 characters. */
function wrap(pairs: string[]): string[] {
  const out: string[] = [];
  let line = '';
  for (const pair of pairs) {
    if (line && line.length + pair.length > 110) {
      out.push(`  ${line}`);
      line = '';
    }
    line = line ? `${line}  ${pair}` : pair;
  }
  if (line) out.push(`  ${line}`);
  return out;
}
