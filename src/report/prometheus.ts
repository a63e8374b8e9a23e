// --metrics-out FILE: the run's metrics in the Prometheus text format (prom-client), for a Pushgateway or a
// node-exporter textfile collector. One gauge per threshold metric labelled by profile and policy; per fault
// window and per fault kind with fault and fault_kind labels; thresholds and verdicts. Names follow Prometheus
// conventions (promtool check metrics): faultline_ prefix, base units (times in _seconds, _bytes), _ratio for
// 0..1, and no _total, which belongs to counters: a run is a snapshot, so every family is a gauge. A metric with
// nothing to measure (n/a) has no sample: Prometheus has no null, and a 0 would read as a measurement.
import { Gauge, Registry } from 'prom-client';
import { METRICS, type MetricDef } from '../measure/metric-table.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import { windowHits } from './hits.ts';
import { TALLY_ORDER } from './verdict-style.ts';

type Labels = Record<string, string>;

export interface Family {
  name: string;
  help: string;
  /** Labels besides profile and policy (run-level families have neither). */
  labels: readonly string[];
  perProfile: boolean;
  samples(p: ProfileReport | undefined, run: RunReport): Array<{ labels: Labels; value: number }>;
}

/** A threshold metric as exported: its Prometheus name, and the factor from its table unit to the base unit. */
function exported(name: string, def: MetricDef): { name: string; scale: number } {
  switch (def.unit ?? 'count') {
    case 'ms':
      return { name: `faultline_${name.replace(/_ms(?=_|$)/, '')}_seconds`, scale: MS_TO_SECONDS };
    case 'rate':
      return { name: `faultline_${name.replace(/_rate$/, '')}_ratio`, scale: 1 };
    case 'ops/s':
      return { name: `faultline_${name.replace(/_ops_s$/, '')}_ops_per_second`, scale: 1 };
    case 'bytes':
      return { name: `faultline_${name.replace(/_bytes/, '')}_bytes`, scale: 1 };
    default:
      // Counts, attempts per op and per-hit quotients: the name says it; an abbreviated unit is spelt out.
      return { name: `faultline_${name.replace(/_per_s(?=_|$)/, '_per_second')}`, scale: 1 };
  }
}

const MS_TO_SECONDS = 1 / 1000;
const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? ms : ms * MS_TO_SECONDS);

const one = (value: number | null | undefined, labels: Labels = {}) =>
  value === null || value === undefined ? [] : [{ labels, value }];
const windowLabels = ['fault', 'fault_kind', 'seam'] as const;

const tableFamilies: Family[] = Object.entries(METRICS).map(([name, def]) => {
  const { name: exportedName, scale } = exported(name, def);
  return {
    name: exportedName,
    help: `${def.describe} (threshold metric ${name})`,
    labels: [],
    perProfile: true,
    samples: (p) => {
      const value = p ? def.get(p.metrics).value : null;
      return one(value === null ? null : value * scale);
    },
  };
});

const extraFamilies: Family[] = [
  {
    name: 'faultline_fault_window_recovery_seconds',
    help: 'recovery of one fault window: t_recovered - t_off (no sample when not recovered or not measurable)',
    labels: windowLabels,
    perProfile: true,
    samples: (p) =>
      (p?.metrics.recovery ?? []).flatMap((w) =>
        one(seconds(w.recoveryMs), { fault: w.fault, fault_kind: w.kind, seam: w.seam }),
      ),
  },
  {
    name: 'faultline_fault_window_first_success_seconds',
    help: 'first op that ended ok after the fault window ended, from the end of the window',
    labels: windowLabels,
    perProfile: true,
    samples: (p) =>
      (p?.metrics.recovery ?? []).flatMap((w) =>
        one(seconds(w.firstSuccessMs), { fault: w.fault, fault_kind: w.kind, seam: w.seam }),
      ),
  },
  {
    name: 'faultline_fault_window_hits',
    help: 'what the fault window actually did, counted by its seam (when the run counts hits)',
    labels: windowLabels,
    perProfile: true,
    samples: (p) =>
      (p?.metrics.faultWindows ?? []).flatMap((w) =>
        one(windowHits(w), { fault: w.fault, fault_kind: w.kind, seam: w.seam }),
      ),
  },
  {
    name: 'faultline_fault_kind_retry_success_ratio',
    help: 'retried ops that ended ok, per fault kind (no sample when none was retried)',
    labels: ['fault_kind'],
    perProfile: true,
    samples: (p) => (p?.metrics.retrySuccessByKind ?? []).flatMap((k) => one(k.rate, { fault_kind: k.kind })),
  },
  {
    name: 'faultline_fault_kind_retried_ops',
    help: 'ops with at least one failed attempt while a fault of this kind was on',
    labels: ['fault_kind'],
    perProfile: true,
    samples: (p) => (p?.metrics.retrySuccessByKind ?? []).flatMap((k) => one(k.retriedOps, { fault_kind: k.kind })),
  },
  {
    name: 'faultline_failed_attempts',
    help: 'failed attempts by error category',
    labels: ['category'],
    perProfile: true,
    samples: (p) =>
      Object.entries(p?.metrics.errorsByCategory ?? {}).map(([category, value]) => ({ labels: { category }, value })),
  },
  {
    name: 'faultline_failed_attempts_by_code',
    help: 'failed attempts by stable error code',
    labels: ['code'],
    perProfile: true,
    samples: (p) => Object.entries(p?.metrics.errorsByCode ?? {}).map(([code, value]) => ({ labels: { code }, value })),
  },
  {
    name: 'faultline_threshold_ok',
    help: '1 when the threshold held, 0 when it failed',
    labels: ['threshold'],
    perProfile: true,
    samples: (p) => (p?.thresholds ?? []).map((t) => ({ labels: { threshold: t.expr }, value: t.ok ? 1 : 0 })),
  },
  {
    name: 'faultline_profile_verdict',
    help: "1 for the profile's verdict, 0 for the others (pass, fail, inert, inconclusive, interrupted)",
    labels: ['verdict'],
    perProfile: true,
    samples: (p) =>
      [...new Set([...TALLY_ORDER, p?.verdict ?? 'pass'])].map((verdict) => ({
        labels: { verdict },
        value: p?.verdict === verdict ? 1 : 0,
      })),
  },
  {
    name: 'faultline_profile_duration_seconds',
    help: 'wall time of the profile, set-up and drain included',
    labels: [],
    perProfile: true,
    samples: (p) => one(seconds(p?.durationMs)),
  },
  {
    name: 'faultline_run_duration_seconds',
    help: 'wall time of the whole run',
    labels: [],
    perProfile: false,
    samples: (_p, run) => one(seconds(run.durationMs)),
  },
  {
    name: 'faultline_run_start_timestamp_seconds',
    help: 'when the run started, Unix time (for staleness alerts)',
    labels: [],
    perProfile: false,
    samples: (_p, run) => one(Date.parse(run.startedAt) / 1000),
  },
];

/** Every exported family, in output order. */
export const PROMETHEUS_FAMILIES: readonly Family[] = [...tableFamilies, ...extraFamilies];

export async function renderPrometheus(run: RunReport): Promise<string> {
  const registry = new Registry();
  for (const family of PROMETHEUS_FAMILIES) {
    const labelNames = [...(family.perProfile ? ['profile', 'policy'] : []), ...family.labels];
    const gauge = new Gauge({ name: family.name, help: family.help, labelNames, registers: [registry] });
    const reports = family.perProfile ? run.profiles : [undefined];
    for (const p of reports) {
      const base = p ? { profile: p.name, policy: p.policy } : {};
      for (const s of family.samples(p, run)) gauge.set({ ...base, ...s.labels }, s.value);
    }
  }
  return registry.metrics();
}

/** The families as a Markdown table, for docs/metrics-export.md. */
export function prometheusCatalogue(): string {
  const rows = PROMETHEUS_FAMILIES.map((f) => {
    const labels = [...(f.perProfile ? ['profile', 'policy'] : []), ...f.labels].join(', ') || '–';
    return `| \`${f.name}\` | ${labels} | ${f.help.replace(/\|/g, '\\|')} |`;
  });
  return ['| metric (gauge) | labels | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
