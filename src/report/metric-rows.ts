// The metric table as rows a renderer prints: every renderer reads METRICS, none lists metrics by hand.
import { METRICS, type MetricDef, type MetricValue } from '../measure/metric-table.ts';
import type { Metrics } from '../measure/types.ts';
import { fmtMs, fmtNum, fmtPct } from './format.ts';

export interface MetricRow {
  name: string;
  describe: string;
  /** The value as a person reads it: "12", "98.5%", "840 ms", "n/a (no fault window)". */
  text: string;
  value: MetricValue;
  headline: boolean;
}

export function formatMetricValue(def: MetricDef, value: MetricValue): string {
  if (value.value === null) {
    const why = value.reason?.replace(/^nothing to measure: /, '');
    return `${value.na ? 'n/a' : 'none'}${why ? ` (${why})` : ''}`;
  }
  const n = value.value;
  switch (def.unit ?? 'count') {
    case 'ms':
      return fmtMs(n);
    case 'rate':
      return fmtPct(n);
    case 'ops/s':
      return `${fmtNum(n)} ops/s`;
    case 'bytes':
      return `${fmtNum(n)} B`;
    case 'per hit':
      return `${fmtNum(n)} per hit`;
    default:
      return fmtNum(n);
  }
}

/** Every metric in table order; `headline` keeps only the ones every summary shows. */
export function metricRows(metrics: Metrics, options: { headline?: boolean } = {}): MetricRow[] {
  const rows: MetricRow[] = [];
  for (const [name, def] of Object.entries(METRICS)) {
    if (options.headline && !def.headline) continue;
    const value = def.get(metrics);
    rows.push({ name, describe: def.describe, text: formatMetricValue(def, value), value, headline: !!def.headline });
  }
  return rows;
}
