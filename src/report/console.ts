// The terminal summary printed after a run, one screen for the whole default suite: the counts, then each profile
// that did not pass on one line with its reasons (failed and inconclusive thresholds, errors, what an interrupted
// run measured), then the negative controls that fired and the passes by name, the runs with indeterminate
// effects, and where report.html is.
// `--verbose` prints every profile's block instead (console-verbose.ts).

import type { History } from '../core/history.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import { baselineLines, formatConsoleDetail } from './console-verbose.ts';
import { detectorThresholds, isDetectorRun } from './detector.ts';
import { controlPhrase, describeThreshold, faultsOffPhrase, fmtMs, interruptedText } from './format.ts';
import { failedThresholds, fmtInconclusive, inconclusiveThresholds } from './threshold-view.ts';
import { profileBadge, tallyText, verdictStyle } from './verdict-style.ts';

export interface ConsoleOptions {
  /** ANSI colours; default: only when stdout is a TTY and NO_COLOR is unset. */
  color?: boolean;
  /** For times relative to the workload's start when the report does not carry the offset. */
  histories?: Record<string, History>;
  /** Every profile's block (`--verbose`). */
  verbose?: boolean;
  /** Where report.html was written, for the last line. */
  reportHtml?: string;
}

const WIDTH = 110;

export function formatConsoleSummary(run: RunReport, options: ConsoleOptions = {}): string {
  const color = options.color ?? (process.stdout.isTTY === true && process.env.NO_COLOR === undefined);
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const pointer = options.reportHtml ? [`details: ${options.reportHtml}`] : [];
  if (options.verbose) return `${formatConsoleDetail(run, options, paint)}${pointer.map((l) => `${l}\n`).join('')}`;

  const names = new Set(run.profiles.map((p) => p.name)).size;
  const runs =
    run.profiles.length === names ? `${names} profile(s)` : `${run.profiles.length} runs of ${names} profile(s)`;
  const style = verdictStyle(run.verdict);
  const lines = [
    `Faultline ${run.faultline}  seed ${run.seed}  ${runs}  ${fmtMs(run.durationMs)}  ${paint(style.ansi, style.label)}`,
    `${run.profiles.length} run(s): ${tallyText(run.profiles)}`,
  ];
  if (run.faultsOff) {
    const s = verdictStyle(run.faultsOff.verdict);
    lines.push(
      `${paint(s.ansi, s.label)} FAULTS-OFF CONTROL: every profile ran with its faults removed, not a real run; it passes when each one fails a threshold without them`,
    );
  }
  const judged = run.profiles.filter((p) => p.verdict !== 'pass');
  for (const p of judged) {
    const badge = profileBadge(p);
    lines.push(`${paint(badge.ansi, `${badge.icon} ${badge.label}`)} ${label(p)}: ${reasons(p).join('; ')}`);
  }
  // In a faults-off control a profile that passed is the defect the control looks for: each gets its own line.
  for (const p of run.profiles.filter((p) => p.verdict === 'pass' && p.faultsOff)) {
    lines.push(`${paint(31, '✗')} ${label(p)}: ${faultsOffPhrase(p)}`);
  }
  const passed = run.profiles.filter((p) => p.verdict === 'pass' && !p.faultsOff);
  const fired = passed.filter(isDetectorRun);
  const clean = passed.filter((p) => !isDetectorRun(p));
  if (fired.length > 0) lines.push(...named(paint(36, `🎯 detector fired (${fired.length}):`), fired));
  if (clean.length > 0) lines.push(...named(paint(32, `✔ passed (${clean.length}):`), clean));
  // An effect that happened while its op ended with an unknown outcome passes every effect threshold but is what
  // a user reconciles by hand: named even on a pass.
  const unknown = run.profiles.filter((p) => (p.metrics.indeterminateEffects ?? 0) > 0);
  if (unknown.length > 0)
    lines.push(
      ...named(
        paint(33, '⚠ indeterminate effects (the op ended unknown, its effect happened):'),
        unknown,
        (p) => ` (${p.metrics.indeterminateEffects})`,
      ),
    );
  if (run.baseline) lines.push(...baselineLines(run.baseline, paint));
  lines.push(...pointer.map((l) => `${l} (--verbose: every profile's numbers)`));
  return `${lines.join('\n')}\n`;
}

function label(p: Pick<ProfileReport, 'name' | 'pairing'>): string {
  return p.pairing ? `${p.name} [${p.pairing}]` : p.name;
}

/** Why a profile did not pass, most telling first. */
function reasons(p: ProfileReport): string[] {
  if (p.verdict === 'interrupted') return [interruptedText(p)];
  const out: string[] = [];
  if (p.error) out.push(`error ${p.error.split('\n', 1)[0]}`);
  const faultsOff = faultsOffPhrase(p);
  if (faultsOff) out.push(faultsOff);
  const control = controlPhrase(p);
  if (control && detectorThresholds(p).some((t) => !t.ok)) out.push(control);
  out.push(...failedThresholds(p).map((t) => `${t.expr}: ${describeThreshold(t)}`));
  out.push(...inconclusiveThresholds(p).map((t) => `inconclusive ${fmtInconclusive(t)}`));
  if (out.length === 0 && p.verdictReason) out.push(p.verdictReason);
  return out.length > 0 ? out : [`verdict ${p.verdict}`];
}

/** "✔ passed (40): a, b, c [auto], ..." in lines of about WIDTH characters. */
function named(head: string, profiles: readonly ProfileReport[], suffix = (_p: ProfileReport) => ''): string[] {
  const out: string[] = [];
  let line = head;
  for (const [i, p] of profiles.entries()) {
    const word = `${label(p)}${suffix(p)}${i < profiles.length - 1 ? ',' : ''}`;
    if (line.length + word.length + 1 > WIDTH && line !== head) {
      out.push(line);
      line = ' ';
    }
    line = `${line} ${word}`;
  }
  out.push(line);
  return out;
}
