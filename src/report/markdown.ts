// summary.md: GitHub-flavoured Markdown for a CI job summary ($GITHUB_STEP_SUMMARY).

import type { ProfileReport, RunReport, Verdict } from '../measure/run-report.ts';
import { escapeMd, mdCode } from './escape.ts';
import { describeThreshold, fmtBreaker, fmtMs, fmtNum, fmtWindowRecovery } from './format.ts';
import { metricRows } from './metric-rows.ts';

const ICON: Record<Verdict, string> = { pass: '✅', fail: '❌', inert: '⚪', inconclusive: '❔', interrupted: '⏹️' };

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
  out.push('| metric | value |', '| --- | --- |');
  for (const r of metricRows(m, { headline: true })) out.push(`| ${mdCode(r.name)} | ${c(r.text)} |`);
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
      const rec = `${w.status === 'not-recovered' || w.status === 'never-removed' ? '❌ ' : ''}${fmtWindowRecovery(w)}`;
      out.push(
        `| ${c(w.fault)} | ${c(w.kind)} | ${fmtMs(w.onAtMs)} | ${fmtMs(w.offAtMs)} | ${c(rec)} | ${fmtMs(w.firstSuccessMs)} |`,
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
