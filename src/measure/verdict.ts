// Turns a History plus a profile's expectations into a ProfileReport, and profiles into a RunReport.
import { readFileSync } from 'node:fs';
import type { History } from '../core/history.ts';
import { computeMetrics } from './metrics.ts';
import type { ProfileReport, RunReport, Verdict } from './run-report.ts';
import { evaluateThresholds, type ThresholdResult } from './thresholds.ts';
import type { Metrics, MetricsOptions } from './types.ts';

export interface ProfileInput {
  name: string;
  description?: string;
  file?: string;
  seed: number;
  policy: string;
  history: History;
  /** The profile's `expect` thresholds. */
  expect: readonly string[];
  decisionLogSha256: string;
  metricsOptions?: MetricsOptions;
  error?: string;
  notes?: string[];
}

export function buildProfileReport(input: ProfileInput): ProfileReport {
  const metrics = computeMetrics(input.history, input.metricsOptions);
  const thresholds = evaluateThresholds(input.expect, metrics);
  return {
    name: input.name,
    ...(input.description ? { description: input.description } : {}),
    ...(input.file ? { file: input.file } : {}),
    seed: input.seed,
    policy: input.policy,
    verdict: verdictOf(thresholds, input.error),
    metrics,
    thresholds,
    decisionLogSha256: input.decisionLogSha256,
    decisions: input.history.decisions.length,
    startedAt: new Date(input.history.startMs).toISOString(),
    durationMs: Math.round(input.history.endMs - input.history.startMs),
    notes: [...(input.notes ?? []), ...notesFor(metrics, thresholds, input.metricsOptions)],
    ...(input.error ? { error: input.error } : {}),
  };
}

export function verdictOf(thresholds: readonly ThresholdResult[], error?: string): Verdict {
  return !error && thresholds.every((t) => t.ok) ? 'pass' : 'fail';
}

export interface RunInput {
  seed: number;
  startedAt: string | Date;
  durationMs: number;
  profiles: ProfileReport[];
  faultline?: string;
}

export function buildRunReport(input: RunInput): RunReport {
  return {
    schemaVersion: 2,
    faultline: input.faultline ?? faultlineVersion(),
    seed: input.seed,
    startedAt: typeof input.startedAt === 'string' ? input.startedAt : input.startedAt.toISOString(),
    durationMs: Math.round(input.durationMs),
    verdict: input.profiles.every((p) => p.verdict === 'pass') ? 'pass' : 'fail',
    profiles: input.profiles,
  };
}

/** Notes that keep a reader from over-trusting a number. */
export function notesFor(m: Metrics, thresholds: readonly ThresholdResult[], options?: MetricsOptions): string[] {
  const notes: string[] = [];
  if (thresholds.length === 0) notes.push('no thresholds: the verdict passes by default');
  if (m.ops === 0) notes.push('no ops ran');
  if (m.retriedOps === 0 && m.ops > 0) notes.push('retry_success_rate is n/a: no op had a failed attempt');
  if (m.unattributedEffects > 0) {
    notes.push(`${m.unattributedEffects} ledger effect(s) matched no op by trace id or argsKey`);
  }
  for (const w of m.recovery) if (!w.recovered) notes.push(`recovery of fault window ${w.fault}: ${w.note}`);
  if (!options?.canaries?.length) notes.push('no canaries given: the leak scan did not run');
  return notes;
}

let cachedVersion: string | undefined;
function faultlineVersion(): string {
  cachedVersion ??= readVersion();
  return cachedVersion;
}

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
