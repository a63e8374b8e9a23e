// The terminal summary printed after a run: one block per profile, failing thresholds spelled out, a control
// run labelled as one, and a tally of verdicts at the end.

import type { History } from '../core/history.ts';
import type { BaselineComparison, RunReport } from '../measure/run-report.ts';
import {
  controlPhrase,
  describeThreshold,
  faultsOffPhrase,
  fmtBreaker,
  fmtCalibration,
  fmtMs,
  fmtThresholdActual,
} from './format.ts';
import { metricRows } from './metric-rows.ts';
import { workloadOffsetMs } from './time-base.ts';
import { profileBadge, tallyText, verdictStyle } from './verdict-style.ts';

export interface ConsoleOptions {
  /** ANSI colours; default: only when stdout is a TTY and NO_COLOR is unset. */
  color?: boolean;
  /** For times relative to the workload's start when the report does not carry the offset. */
  histories?: Record<string, History>;
}

export function formatConsoleSummary(run: RunReport, options: ConsoleOptions = {}): string {
  const color = options.color ?? (process.stdout.isTTY === true && process.env.NO_COLOR === undefined);
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const badge = (s: { label: string; ansi: number }) => paint(s.ansi, s.label);
  const dim = (s: string) => paint(2, s);

  const lines = [
    `Faultline ${run.faultline}  seed ${run.seed}  ${run.profiles.length} profile(s)  ${fmtMs(run.durationMs)}  ${badge(verdictStyle(run.verdict))}`,
  ];
  if (run.faultsOff) {
    lines.push(
      `${badge(verdictStyle(run.faultsOff.verdict))} FAULTS-OFF CONTROL: every profile ran with its faults removed, not a real run; it passes when each one fails a threshold without them`,
    );
  }
  for (const p of run.profiles) {
    const m = p.metrics;
    const control = controlPhrase(p) ?? faultsOffPhrase(p);
    const calibration = fmtCalibration(p);
    lines.push(
      `${badge(profileBadge(p))} ${p.name}${p.pairing ? ` [${p.pairing}]` : ''} ${dim(`(${p.policy}${p.control ? ' control' : ''}, seed ${p.seed}${calibration ? `, ${calibration}` : ''})`)}`,
    );
    if (control) lines.push(`  ${paint(profileBadge(p).ansi, control)}`);
    if (p.verdict === 'inconclusive' && p.verdictReason)
      lines.push(`  ${paint(profileBadge(p).ansi, p.verdictReason)}`);
    lines.push(...wrap(metricRows(m, { headline: true }).map((r) => `${r.name} ${r.text}`)));
    const breaker = fmtBreaker(m, workloadOffsetMs(p, options.histories?.[p.name]));
    if (breaker) lines.push(`  circuit breaker ${breaker}`);
    if (p.error) lines.push(`  ${paint(31, 'error')} ${p.error.split('\n', 1)[0]}`);
    if (!p.control) {
      for (const t of p.thresholds) {
        if (!t.ok) lines.push(`  ${paint(31, '✗')} ${t.expr}: ${describeThreshold(t)}`);
        // A relative bound is shown whatever the outcome: the control's value is part of the result.
        else if (t.relative) lines.push(`  ${paint(32, '✓')} ${t.expr}: ${fmtThresholdActual(t)}`);
      }
    }
  }
  if (run.baseline) lines.push(...baselineLines(run.baseline, paint));
  lines.push(`${run.profiles.length} profile(s): ${tallyText(run.profiles)}`);
  return `${lines.join('\n')}\n`;
}

function baselineLines(b: BaselineComparison, paint: (code: number, s: string) => string): string[] {
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
