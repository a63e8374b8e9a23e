// The terminal summary printed after a run: one block per profile, failing thresholds spelled out.

import type { RunReport, Verdict } from '../measure/run-report.ts';
import { describeThreshold, fmtBreaker, fmtMs, fmtRetry, worstRecovery } from './format.ts';

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
    lines.push(
      `${verdict(p.verdict)} ${p.name} ${dim(`(${p.policy}, seed ${p.seed})`)}`,
      `  ops ${m.ops}: ok ${m.opsOk}  fail ${m.opsFail}  info ${m.opsInfo}   retry success ${fmtRetry(m)}`,
      `  effects: duplicate ${m.duplicateEffects}  ghost ${m.ghostEffects}  lost ${m.lostEffects}` +
        (m.unattributedEffects > 0 ? `  unattributed ${m.unattributedEffects}` : '') +
        (m.leaks > 0 ? `   leaks ${m.leaks}` : ''),
      `  recovery ${worstRecovery(m.recovery)}   latency p50 ${fmtMs(m.latencyMs.p50)}  p99 ${fmtMs(m.latencyMs.p99)}`,
    );
    const breaker = fmtBreaker(m);
    if (breaker) lines.push(`  circuit breaker ${breaker}`);
    if (p.error) lines.push(`  ${paint(31, 'error')} ${p.error.split('\n', 1)[0]}`);
    for (const t of p.thresholds) {
      if (!t.ok) lines.push(`  ${paint(31, '✗')} ${t.expr}: ${describeThreshold(t)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
