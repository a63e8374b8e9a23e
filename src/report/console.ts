// The terminal summary printed after a run: one block per profile, failing thresholds spelled out.

import type { RunReport, Verdict } from '../measure/run-report.ts';
import { describeThreshold, fmtBreaker, fmtMs } from './format.ts';
import { metricRows } from './metric-rows.ts';

export interface ConsoleOptions {
  /** ANSI colours; default: only when stdout is a TTY and NO_COLOR is unset. */
  color?: boolean;
}

export function formatConsoleSummary(run: RunReport, options: ConsoleOptions = {}): string {
  const color = options.color ?? (process.stdout.isTTY === true && process.env.NO_COLOR === undefined);
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const verdict = (v: Verdict) => paint(v === 'pass' ? 32 : 31, v.toUpperCase());
  const dim = (s: string) => paint(2, s);

  const lines = [
    `Faultline ${run.faultline}  seed ${run.seed}  ${run.profiles.length} profile(s)  ${fmtMs(run.durationMs)}  ${verdict(run.verdict)}`,
  ];
  for (const p of run.profiles) {
    const m = p.metrics;
    lines.push(`${verdict(p.verdict)} ${p.name} ${dim(`(${p.policy}, seed ${p.seed})`)}`);
    lines.push(...wrap(metricRows(m, { headline: true }).map((r) => `${r.name} ${r.text}`)));
    const breaker = fmtBreaker(m);
    if (breaker) lines.push(`  circuit breaker ${breaker}`);
    if (p.error) lines.push(`  ${paint(31, 'error')} ${p.error.split('\n', 1)[0]}`);
    for (const t of p.thresholds) {
      if (!t.ok) lines.push(`  ${paint(31, '✗')} ${t.expr}: ${describeThreshold(t)}`);
    }
  }
  return `${lines.join('\n')}\n`;
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
