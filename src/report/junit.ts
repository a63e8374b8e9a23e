// junit.xml: one testsuite per profile (and pairing), one testcase per threshold, so CI shows which expectation
// broke. Each failure says actual against expected and carries the command that reproduces it; a threshold that was
// not judged (inconclusive, or measured by an interrupted run) is skipped with its reason, never a failure. Valid against
// schema/junit.xsd (the common JUnit format CI systems read; see the header of that file).

import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import type { ThresholdResult } from '../measure/thresholds.ts';
import { escapeXml } from './escape.ts';
import { describeThreshold, fmtThresholdActual } from './format.ts';
import { replayCommands } from './replay.ts';
import { failedThresholds, fmtInconclusive, inconclusiveThresholds } from './threshold-view.ts';

export interface JunitOptions {
  /** Where report.json is, for the replay command. */
  reportPath?: string;
}

/**
 * A verdict that is neither pass nor explained by failed thresholds or an error gets a testcase of its own:
 * skipped when the run could not judge (inconclusive, interrupted), a failure otherwise (inert, anything new).
 */
const VERDICT_CASE: Record<string, 'skipped' | 'failure' | undefined> = {
  pass: undefined,
  inconclusive: 'skipped',
  interrupted: 'skipped',
};

export function renderJunit(run: RunReport, options: JunitOptions = {}): string {
  const suites = run.profiles.map((p) => suite(p, options));
  const count = (f: (p: ProfileReport) => number) => run.profiles.reduce((n, p) => n + f(p), 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="faultline" tests="${count((p) => cases(p).length)}" failures="${count(failures)}" errors="${count((p) => (p.error ? 1 : 0))}" time="${seconds(run.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

interface Case {
  name: string;
  outcome?: { element: 'failure' | 'error' | 'skipped'; type: string; message: string; body?: string };
}

function cases(p: ProfileReport, reproduce = ''): Case[] {
  const out: Case[] = [];
  if (p.error) {
    out.push({
      name: 'run',
      outcome: { element: 'error', type: 'run', message: firstLine(p.error), body: p.error + reproduce },
    });
  }
  const failed = new Set(failedThresholds(p));
  const inconclusive = new Set(inconclusiveThresholds(p));
  for (const t of p.thresholds) out.push({ name: t.expr, ...outcomeOf(t, p, failed, inconclusive, reproduce) });
  const explained = p.error !== undefined || failed.size > 0;
  const element = p.verdict in VERDICT_CASE ? VERDICT_CASE[p.verdict] : 'failure';
  if (element && !explained) {
    const message = verdictMessage(p, [...inconclusive]);
    out.push({ name: 'verdict', outcome: { element, type: 'verdict', message, body: message + reproduce } });
  }
  if (out.length === 0) out.push({ name: 'completed (no thresholds)' });
  return out;
}

/** A failing threshold fails; an inconclusive one, or any of an interrupted run, is skipped: it was not judged. */
function outcomeOf(
  t: ThresholdResult,
  p: ProfileReport,
  failed: ReadonlySet<ThresholdResult>,
  inconclusive: ReadonlySet<ThresholdResult>,
  reproduce: string,
): Pick<Case, 'outcome'> {
  if (failed.has(t)) {
    const message = describeThreshold(t);
    return { outcome: { element: 'failure', type: 'threshold', message, body: message + reproduce } };
  }
  if (inconclusive.has(t)) {
    const message = `inconclusive: ${fmtInconclusive(t)}`;
    return { outcome: { element: 'skipped', type: 'threshold', message } };
  }
  if (p.verdict === 'interrupted') {
    const message = `not judged: the run was interrupted (measured so far: ${fmtThresholdActual(t)})`;
    return { outcome: { element: 'skipped', type: 'threshold', message } };
  }
  // A negative control's silent detector fails its run (the profile's badge says DETECTOR SILENT).
  if (!t.ok && p.verdict === 'fail') {
    const message = `detector did not fire: ${describeThreshold(t)}`;
    return { outcome: { element: 'failure', type: 'threshold', message, body: message + reproduce } };
  }
  return {};
}

function verdictMessage(p: ProfileReport, inconclusive: readonly ThresholdResult[]): string {
  if (inconclusive.length > 0) return `inconclusive: ${inconclusive.map(fmtInconclusive).join('; ')}`;
  if (p.verdict === 'interrupted')
    return `interrupted after ${p.metrics.ops} ops: ${p.verdictReason ?? 'the run was stopped'}`;
  return `verdict ${p.verdict}${p.verdictReason ? `: ${p.verdictReason}` : ''}`;
}

function failures(p: ProfileReport): number {
  return cases(p).filter((k) => k.outcome?.element === 'failure').length;
}

function suite(p: ProfileReport, options: JunitOptions): string {
  const a = (s: string | number | boolean) => escapeXml(String(s));
  // A run in several pairings has a suite per profile and pairing.
  const name = p.pairing ? `${p.name} [${p.pairing}]` : p.name;
  const className = p.pairing ? `faultline.${p.name}.${p.pairing}` : `faultline.${p.name}`;
  const commands = replayCommands(p, options.reportPath);
  const reproduce = commands.length > 0 ? `\n\nreproduce:\n${commands.map((c) => `  ${c}`).join('\n')}` : '';
  const all = cases(p, reproduce);
  const skipped = all.filter((k) => k.outcome?.element === 'skipped').length;
  const lines = [
    `  <testsuite name="${a(name)}" tests="${all.length}" failures="${failures(p)}" errors="${p.error ? 1 : 0}" skipped="${skipped}" ` +
      `time="${seconds(p.durationMs ?? p.metrics.durationMs)}"${p.startedAt ? ` timestamp="${a(p.startedAt)}"` : ''}>`,
    '    <properties>',
    ...Object.entries({
      seed: p.seed,
      policy: p.policy,
      verdict: p.verdict,
      control: p.control === true,
      ...(p.pairing ? { pairing: p.pairing } : {}),
      decisionLogSha256: p.decisionLogSha256,
      ...(commands.length > 0 ? { replay: commands[0] } : {}),
    }).map(([k, v]) => `      <property name="${k}" value="${a(v)}"/>`),
    '    </properties>',
  ];
  for (const k of all) {
    const open = `    <testcase name="${a(k.name)}" classname="${a(className)}" time="0"`;
    if (!k.outcome) {
      lines.push(`${open}/>`);
      continue;
    }
    const { element, type, message, body } = k.outcome;
    lines.push(
      `${open}>`,
      `      <${element} message="${a(message)}" type="${a(type)}">${escapeXml(body ?? message)}</${element}>`,
      '    </testcase>',
    );
  }
  if (p.notes.length > 0) lines.push(`    <system-out>${escapeXml(p.notes.join('\n'))}</system-out>`);
  lines.push('  </testsuite>');
  return lines.join('\n');
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0];
}
