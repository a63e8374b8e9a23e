// junit.xml: one testsuite per profile, one testcase per threshold, so CI shows which expectation broke.

import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import { escapeXml } from './escape.ts';
import { describeThreshold } from './format.ts';

export function renderJunit(run: RunReport): string {
  const suites = run.profiles.map(suite);
  const tests = run.profiles.reduce((n, p) => n + caseCount(p), 0);
  const failures = run.profiles.reduce((n, p) => n + p.thresholds.filter((t) => !t.ok).length, 0);
  const errors = run.profiles.filter((p) => p.error).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="faultline" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds(run.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function caseCount(p: ProfileReport): number {
  return Math.max(1, p.thresholds.length) + (p.error ? 1 : 0);
}

function suite(p: ProfileReport): string {
  const a = (s: string | number) => escapeXml(String(s));
  const className = `faultline.${p.name}`;
  const failures = p.thresholds.filter((t) => !t.ok).length;
  const lines = [
    `  <testsuite name="${a(p.name)}" tests="${caseCount(p)}" failures="${failures}" errors="${p.error ? 1 : 0}" ` +
      `time="${seconds(p.durationMs ?? p.metrics.durationMs)}"${p.startedAt ? ` timestamp="${a(p.startedAt)}"` : ''}>`,
    '    <properties>',
    ...Object.entries({
      seed: p.seed,
      policy: p.policy,
      verdict: p.verdict,
      decisionLogSha256: p.decisionLogSha256,
    }).map(([k, v]) => `      <property name="${k}" value="${a(v)}"/>`),
    '    </properties>',
  ];
  if (p.error) {
    lines.push(
      `    <testcase name="run" classname="${a(className)}" time="0">`,
      `      <error message="${a(firstLine(p.error))}" type="run">${escapeXml(p.error)}</error>`,
      '    </testcase>',
    );
  }
  if (p.thresholds.length === 0) {
    lines.push(`    <testcase name="completed (no thresholds)" classname="${a(className)}" time="0"/>`);
  }
  for (const t of p.thresholds) {
    const open = `    <testcase name="${a(t.expr)}" classname="${a(className)}" time="0"`;
    if (t.ok) {
      lines.push(`${open}/>`);
      continue;
    }
    const message = describeThreshold(t);
    lines.push(
      `${open}>`,
      `      <failure message="${a(message)}" type="threshold">${escapeXml(message)}</failure>`,
      '    </testcase>',
    );
  }
  if (p.notes.length > 0) lines.push(`    <system-out>${escapeXml(p.notes.join('\n'))}</system-out>`);
  lines.push('  </testsuite>');
  return lines.join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0];
}
