// Baselines with expected-failure semantics: a threshold the baseline lists as failing does not fail the run
// while it still fails; a new failure, a metric worse than the baseline beyond its tolerance, or a listed
// failure that now passes (the baseline is stale: update it) does.
import { METRICS } from '../measure/metric-table.ts';
import type { BaselineComparison, BaselineFinding, ProfileReport, RunReport } from '../measure/run-report.ts';
import { type BaselineFile, type BaselineProfile, DEFAULT_TOLERANCES, type Tolerance } from './baseline-file.ts';
import { describeThreshold, interruptedText } from './format.ts';
import { formatMetricValue } from './metric-rows.ts';

/** A baseline from a run; `previous` keeps its tolerances (and per-profile overrides) when there is one. */
export function buildBaseline(run: RunReport, previous?: BaselineFile): BaselineFile {
  const tolerances = previous?.tolerances ?? DEFAULT_TOLERANCES;
  return {
    baselineVersion: 1,
    faultline: run.faultline,
    from: { seed: run.seed, startedAt: run.startedAt },
    tolerances,
    profiles: run.profiles.map((p) => {
      const overrides = entryFor(previous, p)?.tolerances;
      const names = Object.keys({ ...tolerances, ...overrides });
      return {
        name: p.name,
        policy: p.policy,
        knownFailures: p.thresholds.filter((t) => !t.ok).map((t) => t.expr),
        metrics: Object.fromEntries(names.map((name) => [name, METRICS[name].get(p.metrics).value])),
        ...(overrides ? { tolerances: overrides } : {}),
      };
    }),
  };
}

export function compareWithBaseline(run: RunReport, baseline: BaselineFile, file: string): BaselineComparison {
  const findings = run.profiles.flatMap((p) => compareProfile(p, entryFor(baseline, p), baseline.tolerances));
  return { file, ok: findings.every((f) => f.ok), findings };
}

function entryFor(baseline: BaselineFile | undefined, p: ProfileReport): BaselineProfile | undefined {
  return baseline?.profiles.find((b) => b.name === p.name && b.policy === p.policy);
}

function compareProfile(
  p: ProfileReport,
  base: BaselineProfile | undefined,
  tolerances: Record<string, Tolerance>,
): BaselineFinding[] {
  const finding = (kind: BaselineFinding['kind'], subject: string, ok: boolean, message: string): BaselineFinding => ({
    profile: p.name,
    policy: p.policy,
    kind,
    subject,
    ok,
    message,
  });
  // Stopped before the end: not judged on thresholds or metrics it never finished measuring.
  if (p.verdict === 'interrupted') return [finding('verdict', p.verdict, false, interruptedText(p))];
  const known = new Set(base?.knownFailures ?? []);
  const out: BaselineFinding[] = [];
  for (const t of p.thresholds) {
    if (!t.ok && known.has(t.expr))
      out.push(finding('known-failure', t.expr, true, `still fails as the baseline says: ${describeThreshold(t)}`));
    if (!t.ok && !known.has(t.expr)) out.push(finding('new-failure', t.expr, false, describeThreshold(t)));
    if (t.ok && known.has(t.expr)) {
      out.push(
        finding(
          'fixed',
          t.expr,
          false,
          `${t.expr} passes now: remove it from the baseline (faultline baseline update)`,
        ),
      );
    }
  }
  for (const expr of known) {
    if (!p.thresholds.some((t) => t.expr === expr)) {
      out.push(
        finding('stale', expr, false, `the baseline lists ${expr} as failing, but the profile has no such threshold`),
      );
    }
  }
  // A fail that thresholds explain is judged above; an error or any other verdict is never excused.
  if (p.error)
    out.push(finding('verdict', 'error', false, `the profile did not run to completion: ${p.error.split('\n')[0]}`));
  else if (p.verdict !== 'pass' && p.verdict !== 'fail')
    out.push(finding('verdict', p.verdict, false, `verdict ${p.verdict}`));
  if (base) out.push(...regressions(p, base, { ...tolerances, ...base.tolerances }, finding));
  return out;
}

function regressions(
  p: ProfileReport,
  base: BaselineProfile,
  tolerances: Record<string, Tolerance>,
  finding: (kind: 'regression', subject: string, ok: boolean, message: string) => BaselineFinding,
): BaselineFinding[] {
  const out: BaselineFinding[] = [];
  for (const [name, tolerance] of Object.entries(tolerances)) {
    const before = base.metrics[name];
    if (before === undefined || before === null) continue; // not measured then: nothing to regress from
    const def = METRICS[name];
    const now = def.get(p.metrics);
    const fmt = (value: number) => formatMetricValue(def, { value });
    if (now.value === null) {
      out.push(finding('regression', name, false, `${name} was ${fmt(before)}, now ${formatMetricValue(def, now)}`));
      continue;
    }
    const allowance = Math.max(tolerance.absolute ?? 0, (tolerance.relative ?? 0) * Math.abs(before));
    const worseBy = tolerance.worse === 'higher' ? now.value - before : before - now.value;
    if (worseBy > allowance + 1e-9) {
      out.push(
        finding(
          'regression',
          name,
          false,
          `${name} ${fmt(before)} → ${fmt(now.value)}: ${tolerance.worse === 'higher' ? 'up' : 'down'} by ${fmt(worseBy)}, tolerance ${fmt(allowance)}`,
        ),
      );
    }
  }
  return out;
}
