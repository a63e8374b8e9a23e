// Runs several profiles on one network backend and writes one report for all of them. Each profile runs in the
// pairings of its protocol choice (`--protocol` or its `protocol:`): once for legacy, modern or one more, several
// for auto and matrix; a pairing whose era removed what the profile tests is n/a, not run. Stopped (Ctrl-C,
// SIGTERM), it returns what it has: the runs that finished, and the one it was in (or would have started) marked
// interrupted; the profiles after it are named in that one's notes. A profile with a relative threshold
// (`x control`) runs its faults-off control first; `faultsOff` runs every profile as its faults-off control.
import type { PolicyName } from '../client/policies/index.ts';
import type { History } from '../core/history.ts';
import { historyKey } from '../core/history-key.ts';
import { type Pairing, type ProtocolChoice, pairingsOf } from '../core/pairing.ts';
import { faultsOffVerdict } from '../measure/faults-off.ts';
import { buildProtocolMatrix, type NotApplicable } from '../measure/protocol-matrix.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import { buildRunReport } from '../measure/verdict.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { notApplicable } from './applicability.ts';
import { runWithControl, withoutFaults } from './faults-off.ts';
import { interruptedReport, notRunNote } from './interrupted-report.ts';
import type { NetworkFactory, RunOptions } from './run-profile.ts';

export interface SuiteOptions
  extends Pick<RunOptions, 'onProgress' | 'onPhase' | 'opShard' | 'runScope' | 'spillHistory'> {
  network: NetworkFactory;
  seed?: number;
  policy?: PolicyName;
  /** Overrides every profile's `protocol:`. */
  protocol?: ProtocolChoice;
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
  /** Run each profile with its faults removed (`--faults off`): every report says it is a faults-off control. */
  faultsOff?: boolean;
}

export interface SuiteResult {
  run: RunReport;
  /** Keyed by historyKey(report): the profile name, and `@pairing` in a run of several pairings. */
  histories: Record<string, History>;
}

export async function runSuite(profiles: LoadedProfile[], options: SuiteOptions): Promise<SuiteResult> {
  const startedAt = new Date();
  const reports: ProfileReport[] = [];
  const histories: Record<string, History> = {};
  const skipped: NotApplicable[] = [];
  const choices = profiles.map((l) => options.protocol ?? l.profile.protocol);
  const used = new Map<string, Pairing>();
  for (const choice of choices) for (const p of pairingsOf(choice)) used.set(p.name, p);
  // Reports name the pairing once the run chose anything but today's pair.
  const named = [...used.keys()].some((name) => name !== 'legacy');
  const several = used.size > 1;
  const record = (report: ProfileReport, history: History) => {
    options.onProfileEnd?.(report);
    reports.push(report);
    histories[historyKey(report, several)] = history;
  };
  suite: for (const [i, loaded] of profiles.entries()) {
    const profile = loaded.profile;
    const seed = options.seed ?? profile.seed;
    const policy = options.policy ?? profile.client.policy;
    const notRun = profiles.slice(i + 1).map((p) => p.profile.name);
    for (const pairing of pairingsOf(choices[i])) {
      const tagged = (report: ProfileReport) => (named ? { ...report, pairing: pairing.name } : report);
      if (options.signal.aborted) {
        // Stopped between runs: the next one stands for the rest, so the run reads interrupted.
        const stopped = interruptedReport(loaded, seed, policy, notRun, 'before this profile started');
        record(tagged(stopped.report), stopped.history);
        break suite;
      }
      const reason = notApplicable(profile, pairing);
      const where = named ? ` [${pairing.name}]` : '';
      if (reason) {
        skipped.push({ profile: profile.name, pairing: pairing.name, reason });
        options.say(`[${i + 1}/${profiles.length}] ${profile.name}${where}: n/a (${reason})`);
        continue;
      }
      options.say(
        `[${i + 1}/${profiles.length}] ${profile.name}${where} (seed ${seed}, policy ${policy}, ${profile.duration / 1000}s) ...`,
      );
      options.onProfileStart?.(i, loaded);
      const subject = options.faultsOff ? withoutFaults(loaded) : loaded;
      const result = await runWithControl(subject, { ...options, seed, policy, pairing }, options.say).catch(
        (error: unknown) => {
          // A set-up cut short by the interrupt is not a failure of the target.
          if (!options.signal.aborted) throw error;
          return interruptedReport(loaded, seed, policy, notRun, 'during its set-up');
        },
      );
      const report = tagged(options.faultsOff ? { ...result.report, faultsOff: true } : result.report);
      record(report, result.history);
      const failed = report.thresholds.filter((t) => !t.ok).length;
      // An interrupted run is not judged on thresholds it never measured.
      const judged =
        report.verdict === 'interrupted'
          ? 'thresholds not judged'
          : `${failed} of ${report.thresholds.length} thresholds failed`;
      options.say(
        `      ${report.verdict.toUpperCase()} in ${((report.durationMs ?? 0) / 1000).toFixed(1)}s: ${report.metrics.ops} ops, ${judged}`,
      );
      if (options.signal.aborted) {
        if (notRun.length > 0) report.notes.push(notRunNote(notRun));
        break suite;
      }
    }
  }
  const run = buildRunReport({
    seed: options.seed ?? profiles[0]?.profile.seed ?? 0,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    profiles: reports,
  });
  if (skipped.length > 0) run.notApplicable = skipped;
  if (options.faultsOff) run.faultsOff = { verdict: faultsOffVerdict(run) };
  if (several) run.matrix = buildProtocolMatrix([...used.values()], reports, skipped);
  return { run, histories };
}
