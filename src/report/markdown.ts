// summary.md: GitHub-flavoured Markdown that fits a pull-request comment or $GITHUB_STEP_SUMMARY: what did not pass
// first (an overview row each, then each in full), then the protocol matrix, then the passes collapsed, a line
// each (an all-pass default suite stays under 10 KB).

import type { History } from '../core/history.ts';
import { historyOf } from '../core/history-key.ts';
import { METRICS } from '../measure/metric-table.ts';
import type { BaselineComparison, ProfileReport, RunReport } from '../measure/run-report.ts';
import { capacityMarkdown } from './capacity-table.ts';
import { isDetectorRun } from './detector.ts';
import { escapeMd, mdCode } from './escape.ts';
import {
  controlPhrase,
  describeThreshold,
  faultsOffPhrase,
  fmtBreaker,
  fmtCalibration,
  fmtMs,
  fmtThresholdActual,
  fmtWindowRecovery,
  interruptedText,
  worstRecovery,
} from './format.ts';
import { fmtHits, windowHits } from './hits.ts';
import { matrixSection } from './matrix-markdown.ts';
import { formatMetricValue, metricRows } from './metric-rows.ts';
import { replayCommands } from './replay.ts';
import {
  failedThresholds,
  fmtInconclusive,
  inconclusiveThresholds,
  notJudgedOrOk,
  thresholdCount,
} from './threshold-view.ts';
import { workloadOffsetMs } from './time-base.ts';
import { profileBadge, tallyText, verdictStyle } from './verdict-style.ts';

export interface MarkdownOptions {
  histories?: Record<string, History>;
  /** Where report.json is, for the replay command. */
  reportPath?: string;
}

const c = (s: string) => escapeMd(s);
const value = (m: ProfileReport['metrics'], name: string) =>
  formatMetricValue(METRICS[name], METRICS[name].get(m)).replace(/ \(.*\)$/, '');

export function renderMarkdown(run: RunReport, options: MarkdownOptions = {}): string {
  const passed = run.profiles.filter((p) => p.verdict === 'pass').length;
  // One policy for every profile goes in the header line; several get a column.
  const policies = [...new Set(run.profiles.map((p) => p.policy))];
  const policyColumn = policies.length > 1;
  const usual = usualPairing(run.profiles);
  const out = [
    `## ${verdictStyle(run.verdict).icon} Faultline ${run.verdict}: ${passed} of ${run.profiles.length} run(s) passed`,
    '',
    `seed ${run.seed}${policyColumn ? '' : ` · policy ${policies[0] ?? '–'}`}${usual ? ` · pairing ${c(usual)}${run.profiles.every((p) => p.pairing === usual) ? '' : ' unless named'}` : ''} · ${run.startedAt} · ${fmtMs(run.durationMs)} · faultline ${run.faultline} · ${tallyText(run.profiles)}`,
    '',
    ...faultsOffHeader(run),
    ...indeterminateLine(run),
  ];
  // What did not pass leads: an overview row each, then each one expanded.
  const expanded = run.profiles.filter((p) => p.verdict !== 'pass');
  if (expanded.length > 0) {
    out.push(
      `| | profile${policyColumn ? ' | policy' : ''} | ops | retry success | dup/ghost/lost | recovery | thresholds |`,
      `| --- | ---${policyColumn ? ' | ---' : ''} | ---: | --- | --- | --- | --- |`,
      ...expanded.map((p) => overviewRow(p, policyColumn)),
      '',
    );
  }
  for (const p of expanded) out.push(...profileSection(p, options));
  if (run.baseline) out.push(...baselineSection(run.baseline));
  if (run.capacity) out.push(...capacityMarkdown(run.capacity));
  out.push(...matrixSection(run));
  const passes = run.profiles.filter((p) => p.verdict === 'pass');
  const everyZero =
    passes.length > 1 ? heldZeros(passes[0]).filter((m) => passes.every((p) => heldZeros(p).includes(m))) : [];
  if (passes.length > 0) {
    out.push(
      `<details><summary>${passes.length} run(s) passed: their thresholds</summary>`,
      '',
      ...(everyZero.length > 0 ? [`Every run below met == 0: ${everyZero.join(', ')}.`, ''] : []),
      ...passes.map((p) => passLine(p, usual, everyZero)),
      '',
      '</details>',
      '',
    );
  }
  return `${out.join('\n')}\n`;
}

/** Runs whose ops ended unknown while their effect happened, passes too: what a user reconciles by hand. */
function indeterminateLine(run: RunReport): string[] {
  const unknown = run.profiles.filter((p) => (p.metrics.indeterminateEffects ?? 0) > 0);
  if (unknown.length === 0) return [];
  const names = unknown.map(
    (p) => `${c(p.pairing ? `${p.name} [${p.pairing}]` : p.name)} (${p.metrics.indeterminateEffects})`,
  );
  return [`> ⚠ **Indeterminate effects** (the op ended unknown, its effect happened): ${names.join(', ')}`, ''];
}

/** A faults-off control says so at the top, so nobody reads its failures as a real run's. */
function faultsOffHeader(run: RunReport): string[] {
  if (!run.faultsOff) return [];
  const { icon } = verdictStyle(run.faultsOff.verdict);
  return [
    `> ${icon} **Faults-off control (${run.faultsOff.verdict}), not a real run:** every profile ran with its faults removed. Each one should fail a threshold (its faults matter); one that passes does not need its faults.`,
    '',
  ];
}

function overviewRow(p: ProfileReport, policyColumn: boolean): string {
  const m = p.metrics;
  const badge = profileBadge(p);
  const effects = ['duplicate_effects', 'ghost_effects', 'lost_effects'].map((k) => value(m, k)).join('/');
  const retry = m.retrySuccessRate === null ? 'n/a' : `${value(m, 'retry_success_rate')} of ${m.retriedOps}`;
  const recovery = worstRecovery(m.recovery).replace(/ \(.*\)$/, '');
  const count = thresholdCount(p);
  const thresholds = notJudgedOrOk(p) ? c(count) : `**${c(count)}**`;
  const policy = policyColumn ? ` | ${c(p.policy)}` : '';
  const name = p.pairing ? `${p.name} [${p.pairing}]` : p.name;
  return `| ${badge.icon}${p.faultsOff ? ' faults-off' : isDetectorRun(p) ? ' control' : ''} | ${c(name)}${policy} | ${m.ops} | ${c(retry)} | ${c(effects)} | ${c(recovery)} | ${thresholds} |`;
}

/** The pairing most runs were in (said once in the header, so a pass line names only another). */
function usualPairing(profiles: readonly ProfileReport[]): string | undefined {
  const counts = new Map<string, number>();
  for (const p of profiles) counts.set(p.pairing ?? '', (counts.get(p.pairing ?? '') ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] || undefined;
}

/** A `metric == 0` threshold that held: a pass line names its metric only. */
const heldAtZero = (t: ProfileReport['thresholds'][number]) => t.op === '==' && t.target === 0 && t.actual === 0;

/** The metrics a run held at exactly 0 by a `== 0` threshold. */
function heldZeros(p: ProfileReport): string[] {
  return p.thresholds.filter(heldAtZero).map((t) => t.metric);
}

/**
 * A passed profile in one line: its thresholds with their actual values, compact enough for a PR comment
 * (`≤`/`≥` for `<=`/`>=`, and every `metric == 0` that held named once after "== 0:"; those every pass held are
 * said once above the lines, in `everyZero`).
 */
function passLine(p: ProfileReport, usual: string | undefined, everyZero: readonly string[]): string {
  const control = isDetectorRun(p) ? ' (detector fired)' : '';
  const zero = heldZeros(p);
  const rest = p.thresholds.filter((t) => !heldAtZero(t));
  const own = zero.filter((m) => !everyZero.includes(m));
  const glyph = (s: string) => s.replace(' <= ', ' ≤ ').replace(' >= ', ' ≥ ');
  const parts = [
    rest.map((t) => c(glyph(fmtThresholdActual(t)))).join(', '),
    own.length > 0 ? `== 0: ${own.join(', ')}` : '',
  ].filter((x) => x !== '');
  // A pass's calibration and loop stalls are in report.json and report.html: here they would double the page.
  const name = p.pairing && p.pairing !== usual ? `${p.name} [${p.pairing}]` : p.name;
  const none = p.thresholds.length > 0 ? 'only those above' : 'no thresholds';
  return `- ${c(name)}${control}: ${parts.join('; ') || none}`;
}

/** " · calibration p95 3.1 ms" (with the margin when there was one), or nothing without a calibration. */
function calibrationText(p: ProfileReport): string {
  const text = fmtCalibration(p);
  return text ? ` · ${c(text)}` : '';
}

function profileSection(p: ProfileReport, options: MarkdownOptions): string[] {
  const m = p.metrics;
  const history = historyOf(options.histories, p);
  const offset = workloadOffsetMs(p, history);
  const badge = profileBadge(p);
  const out = [
    `### ${badge.icon} ${c(p.pairing ? `${p.name} [${p.pairing}]` : p.name)}: ${badge.label.toLowerCase()}`,
    '',
    `seed ${p.seed} · policy ${mdCode(p.policy)}${p.control ? ' (negative control)' : ''} · ${fmtMs(p.durationMs ?? m.durationMs)} · decision log ${mdCode(p.decisionLogSha256.slice(0, 12))}${calibrationText(p)}`,
    '',
  ];
  if (p.verdict === 'interrupted') out.push(`> **Interrupted:** ${c(interruptedText(p))}`, '');
  if (p.error) out.push(`> **Error:** ${c(p.error)}`, '');
  const control = controlPhrase(p) ?? faultsOffPhrase(p);
  if (control) out.push(`**${c(control)}**`, '');
  const failed = failedThresholds(p);
  if (failed.length > 0) out.push(...failed.map((t) => `- ❌ ${mdCode(t.expr)}: ${c(describeThreshold(t))}`), '');
  const inconclusive = inconclusiveThresholds(p);
  if (inconclusive.length > 0) out.push(...inconclusive.map((t) => `- ❔ inconclusive ${c(fmtInconclusive(t))}`), '');
  if (p.verdictReason && failed.length + inconclusive.length === 0 && p.verdict !== 'interrupted')
    out.push(`> ${c(p.verdictReason)}`, '');
  const commands = replayCommands(p, options.reportPath);
  if (commands.length > 0) out.push('```sh', ...commands, '```', '');
  out.push('| metric | value |', '| --- | --- |');
  for (const r of metricRows(m, { headline: true })) out.push(`| ${mdCode(r.name)} | ${c(r.text)} |`);
  const breaker = fmtBreaker(m, offset);
  if (breaker) out.push(`| circuit breaker | ${c(breaker)} |`);
  out.push('');
  if (m.recovery.length > 0) {
    out.push('| fault | kind | on | off | hits | recovery |', '| --- | --- | --- | --- | --- | --- |');
    for (const w of m.recovery) {
      const stuck = w.status === 'not-recovered' || w.status === 'never-removed';
      const hits = fmtHits(
        windowHits(
          m.faultWindows.find((f) => f.fault === w.fault),
          history?.faults.find((f) => f.id === w.fault),
        ),
      )?.replace('hits: ', '');
      const off = w.offAtMs === null ? 'never' : fmtMs(w.offAtMs - offset);
      out.push(
        `| ${c(w.fault)} | ${c(w.kind)} | ${fmtMs(w.onAtMs - offset)} | ${off} | ${hits ?? '–'} | ${stuck ? '❌ ' : ''}${c(fmtWindowRecovery(w))} |`,
      );
    }
    out.push('');
  }
  const behind = effectOps(m);
  if (behind.length > 0) out.push(...behind, '');
  const codes = Object.entries(m.errorsByCode).sort((a, b) => b[1] - a[1]);
  if (codes.length > 0) out.push(`Errors by code: ${codes.map(([code, n]) => `${mdCode(code)} ${n}`).join(', ')}`, '');
  if (p.notes.length > 0) out.push(...p.notes.map((n) => `- ${c(n)}`), '');
  return out;
}

/** The ops (= trace ids) behind each effect number, the first few of each. */
function effectOps(m: ProfileReport['metrics']): string[] {
  const r = m.reconciliation;
  const lists: Array<[string, string[]]> = [
    ['duplicate_effects', r.duplicateOps],
    ['ghost_effects', r.ghostOps],
    ['lost_effects', r.lostOps],
    ['indeterminate_effects', r.infoWithEffectOps],
  ];
  const shown = (ids: string[]) =>
    `${ids.slice(0, 8).map(mdCode).join(', ')}${ids.length > 8 ? ` and ${ids.length - 8} more` : ''}`;
  return [
    ...lists
      .filter(([, ids]) => ids.length > 0)
      .map(([name, ids]) => `- ops behind ${mdCode(name)}: ${shown(ids)} (op id = trace id)`),
    ...(m.lyingHintTools ?? []).map(
      (l) => `- lying hint: tool ${mdCode(l.tool)} declares ${mdCode(l.hint)}, contradicted by ${shown(l.ops)}`,
    ),
  ];
}

function baselineSection(b: BaselineComparison): string[] {
  const out = [`### ${b.ok ? '✅' : '❌'} Baseline ${mdCode(b.file)}: ${b.ok ? 'no regression' : 'regressed'}`, ''];
  for (const f of b.findings) {
    out.push(`- ${f.ok ? '〰️' : '❌'} ${c(f.profile)} (${c(f.policy)}) ${f.kind}: ${c(f.message)}`);
  }
  if (b.findings.length > 0) out.push('');
  return out;
}
