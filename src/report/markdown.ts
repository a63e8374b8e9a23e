// summary.md: GitHub-flavoured Markdown for a CI job summary ($GITHUB_STEP_SUMMARY).

import type { ProfileReport, RunReport, Verdict } from '../measure/run-report.ts';
import { escapeMd, mdCode } from './escape.ts';
import { describeThreshold, fmtBreaker, fmtMs, fmtNum, fmtRetry, worstRecovery } from './format.ts';

const ICON: Record<Verdict, string> = { pass: '✅', fail: '❌' };

export function renderMarkdown(run: RunReport): string {
  const passed = run.profiles.filter((p) => p.verdict === 'pass').length;
  const out = [
    `## ${ICON[run.verdict]} Faultline ${run.verdict}: ${passed} of ${run.profiles.length} profile(s) passed`,
    '',
    `seed ${run.seed} · started ${run.startedAt} · ${fmtMs(run.durationMs)} · faultline ${run.faultline}`,
    '',
  ];
  for (const p of run.profiles) out.push(...profileSection(p));
  return `${out.join('\n')}\n`;
}

function profileSection(p: ProfileReport): string[] {
  const m = p.metrics;
  const c = (s: string) => escapeMd(s);
  const out = [
    `### ${ICON[p.verdict]} ${c(p.name)}: ${p.verdict}`,
    '',
    `seed ${p.seed} · policy ${mdCode(p.policy)} · ${fmtMs(p.durationMs ?? m.durationMs)} · decision log ${mdCode(p.decisionLogSha256.slice(0, 12))}`,
    '',
  ];
  if (p.error) out.push(`> **Error:** ${c(p.error)}`, '');
  out.push(
    '| metric | value |',
    '| --- | --- |',
    `| ops (ok / fail / info) | ${m.ops} (${m.opsOk} / ${m.opsFail} / ${m.opsInfo}) |`,
    `| attempts (mean / max per op) | ${m.attempts} (${fmtNum(round2(m.attemptsPerOp.mean))} / ${m.attemptsPerOp.max}) |`,
    `| retry success | ${fmtRetry(m)} |`,
    `| effects duplicate / ghost / lost / unattributed | ${m.duplicateEffects} / ${m.ghostEffects} / ${m.lostEffects} / ${m.unattributedEffects} |`,
    `| leaks | ${m.leaks} |`,
    `| worst recovery | ${c(worstRecovery(m.recovery))} |`,
    `| latency p50 / p90 / p95 / p99 / max | ${[m.latencyMs.p50, m.latencyMs.p90, m.latencyMs.p95, m.latencyMs.p99, m.latencyMs.max].join(' / ')} ms |`,
    `| attempt latency p50 / p99 | ${m.attemptLatencyMs.p50} / ${m.attemptLatencyMs.p99} ms |`,
    `| throughput | ${m.throughputOpsPerSec} ops/s |`,
    `| Retry-After violations | ${m.retryAfterViolations} |`,
  );
  const breaker = fmtBreaker(m);
  if (breaker) out.push(`| circuit breaker | ${c(breaker)} |`);
  if (m.lookups) out.push(`| status lookups / re-executions avoided | ${m.lookups} / ${m.reexecutionsAvoided ?? 0} |`);
  out.push('');
  if (p.thresholds.length > 0) {
    out.push('| | threshold | actual |', '| --- | --- | --- |');
    for (const t of p.thresholds) {
      const actual = t.ok ? fmtNum(t.actual) : describeThreshold(t);
      out.push(`| ${t.ok ? '✅' : '❌'} | ${mdCode(t.expr)} | ${c(actual)} |`);
    }
    out.push('');
  }
  if (m.recovery.length > 0) {
    out.push('| fault | kind | on | off | recovery | first success |', '| --- | --- | --- | --- | --- | --- |');
    for (const w of m.recovery) {
      const rec = w.recovered ? fmtMs(w.recoveryMs) : '❌ not recovered';
      out.push(
        `| ${c(w.fault)} | ${c(w.kind)} | ${fmtMs(w.onAtMs)} | ${fmtMs(w.offAtMs)} | ${rec} | ${fmtMs(w.firstSuccessMs)} |`,
      );
    }
    out.push('');
  }
  const codes = Object.entries(m.errorsByCode).sort((a, b) => b[1] - a[1]);
  if (codes.length > 0) {
    out.push(`Errors by code: ${codes.map(([code, n]) => `${mdCode(code)} ${n}`).join(', ')}`, '');
  }
  if (p.notes.length > 0) out.push(...p.notes.map((n) => `- ${c(n)}`), '');
  return out;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
