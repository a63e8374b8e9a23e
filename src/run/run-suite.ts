// Runs several profiles on one network backend and writes one report for all of them.
import type { PolicyName } from '../client/policies/index.ts';
import type { History } from '../core/history.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import { buildRunReport } from '../measure/verdict.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { type NetworkFactory, type RunOptions, runProfile } from './run-profile.ts';

export interface SuiteOptions extends Pick<RunOptions, 'onProgress' | 'onPhase'> {
  network: NetworkFactory;
  seed?: number;
  policy?: PolicyName;
  signal: AbortSignal;
  /** A url target may be outside loopback (--allow-non-loopback). */
  allowNonLoopback?: boolean;
  /** Your own client for every profile (--client-module, absolute). */
  clientModule?: string;
  /** Progress lines for a person watching (stderr). */
  say: (line: string) => void;
  /** A profile starts (index from 0) or has ended: for a progress display. */
  onProfileStart?: (index: number, loaded: LoadedProfile) => void;
  onProfileEnd?: (report: ProfileReport) => void;
}

export interface SuiteResult {
  run: RunReport;
  histories: Record<string, History>;
}

export async function runSuite(profiles: LoadedProfile[], options: SuiteOptions): Promise<SuiteResult> {
  const startedAt = new Date();
  const reports: ProfileReport[] = [];
  const histories: Record<string, History> = {};
  for (const [i, loaded] of profiles.entries()) {
    if (options.signal.aborted) break;
    const { profile } = loaded;
    const seed = options.seed ?? profile.seed;
    const policy = options.policy ?? profile.client.policy;
    options.say(
      `[${i + 1}/${profiles.length}] ${profile.name} (seed ${seed}, policy ${policy}, ${profile.duration / 1000}s) ...`,
    );
    options.onProfileStart?.(i, loaded);
    const { report, history } = await runProfile(loaded, { ...options, seed, policy });
    options.onProfileEnd?.(report);
    reports.push(report);
    histories[profile.name] = history;
    const failed = report.thresholds.filter((t) => !t.ok).length;
    options.say(
      `      ${report.verdict.toUpperCase()} in ${((report.durationMs ?? 0) / 1000).toFixed(1)}s: ${report.metrics.ops} ops, ${failed} of ${report.thresholds.length} thresholds failed`,
    );
  }
  const run = buildRunReport({
    seed: options.seed ?? profiles[0]?.profile.seed ?? 0,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    profiles: reports,
  });
  return { run, histories };
}
