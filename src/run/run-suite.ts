// Runs several profiles on one network backend and writes one report for all of them. Each profile runs in the
// pairings of its protocol choice (`--protocol` or its `protocol:`): once for legacy, modern or one more, several
// for auto and matrix; a pairing whose era removed what the profile tests is n/a, not run. Up to `jobs` of these
// runs go at once (each has its own server, proxies and temporary files; the CLI decides when that is safe); the
// report lists them in profile order whatever order they end in. Stopped (Ctrl-C, SIGTERM), it returns what it has:
// the runs that finished, the ones it was in (or the one it would have started) marked interrupted, the profiles
// that never started named in the last one's notes. A user's mistake in one run (a profile, a target, a hook) stops
// the others, then is thrown; any other error fails its run alone, named in its report, and the rest go on. A profile
// with a relative threshold (`x control`) runs its faults-off control first; `faultsOff` runs every profile as its
// faults-off control.
import type { PolicyName } from '../client/policies/index.ts';
import type { History } from '../core/history.ts';
import { historyKey } from '../core/history-key.ts';
import { type Pairing, type ProtocolChoice, pairingsOf } from '../core/pairing.ts';
import { stoppedAlongside } from '../core/signal-grace.ts';
import { isUserFacing } from '../core/user-facing.ts';
import { faultsOffVerdict } from '../measure/faults-off.ts';
import { buildProtocolMatrix, type NotApplicable } from '../measure/protocol-matrix.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import type { ControlRun } from '../measure/shard-format.ts';
import { buildRunReport } from '../measure/verdict.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { notApplicable } from './applicability.ts';
import { runsControlFirst, runWithControl, withoutFaults } from './faults-off.ts';
import { inOrderPool } from './in-order-pool.ts';
import { LinesInRunOrder } from './lines-in-run-order.ts';
import type { NetworkFactory, ProfilePhase, ProfileResult, RunOptions } from './run-profile.ts';
import { dropWarmTargetStarts, warmTargetStart } from './target-starts/index.ts';
import { couldNotRunReport, interruptedReport, notRunNote } from './unmeasured-report.ts';

export interface SuiteOptions extends Pick<RunOptions, 'opShard' | 'runScope' | 'spillHistory'> {
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
  /** Profile runs at once (default 1: one after another). */
  jobs?: number;
  /**
   * The next run sets up (its server, connection, calibration) while the last one drains, when each run has its own
   * server and proxies (the CLI decides). Its lines still come out after the last run's.
   */
  setUpDuringDrain?: boolean;
  /** Progress lines for a person watching (stderr). */
  say: (line: string) => void;
  /**
   * A profile run starts (index of the profile from 0) or has ended, its phase changed, an op ended: for a progress
   * display. `run` tells runs in flight at once apart (a profile runs once per pairing).
   */
  onProfileStart?: (index: number, loaded: LoadedProfile, run: number) => void;
  onProfileEnd?: (report: ProfileReport, run: number) => void;
  onPhase?: (phase: ProfilePhase, run: number) => void;
  onProgress?: (opsDone: number, opsFailed: number, run: number) => void;
  /** Run each profile with its faults removed (`--faults off`): every report says it is a faults-off control. */
  faultsOff?: boolean;
}

export interface SuiteResult {
  run: RunReport;
  /** Keyed by historyKey(report): the profile name, and `@pairing` in a run of several pairings. */
  histories: Record<string, History>;
  /** The faults-off controls relative thresholds were bound by, keyed as `histories` (a shard keeps them for merge). */
  controls: Record<string, ControlRun>;
}

/** One run of the suite: a profile in one pairing. */
interface Unit {
  index: number;
  pairing: Pairing;
}

/** How a run ended: n/a in its pairing, or run (interrupted included). */
type UnitEnd = { skipped: NotApplicable } | { result: ProfileResult };

export async function runSuite(profiles: LoadedProfile[], options: SuiteOptions): Promise<SuiteResult> {
  const startedAt = new Date();
  const reports: ProfileReport[] = [];
  const histories: Record<string, History> = {};
  const controls: Record<string, ControlRun> = {};
  const skipped: NotApplicable[] = [];
  const choices = profiles.map((l) => options.protocol ?? l.profile.protocol);
  const used = new Map<string, Pairing>();
  for (const choice of choices) for (const p of pairingsOf(choice)) used.set(p.name, p);
  // Reports name the pairing once the run chose anything but today's pair.
  const named = [...used.keys()].some((name) => name !== 'legacy');
  const several = used.size > 1;
  const units: Unit[] = profiles.flatMap((_, index) =>
    pairingsOf(choices[index]).map((pairing) => ({ index, pairing })),
  );
  const jobs = options.jobs ?? 1;
  const inOrder = new LinesInRunOrder(options.say);
  // The next run's server gets ready (its child boots) ahead of its set-up, so the set-up does not wait for it.
  const warmNext = (u: number) => {
    const next = units.slice(u + 1).find((n) => !notApplicable(profiles[n.index].profile, n.pairing));
    if (next) warmTargetStart(profiles[next.index].profile.target);
  };
  const ends = await inOrderPool(
    units.length,
    jobs,
    options.signal,
    async (u, signal, release) => {
      // One at a time, a run's lines go out as they are said, after the last run's; several at once, each run's
      // lines go out as a block when it ends, so no two runs' lines mix.
      const block: string[] = [];
      const say = jobs === 1 ? inOrder.of(u) : (line: string) => void block.push(line);
      const next = { warm: () => warmNext(u), release: options.setUpDuringDrain ? release : undefined };
      try {
        return await runUnit(profiles, units[u], u, { ...options, signal, say }, named, next);
      } finally {
        inOrder.end(u);
        if (block.length > 0) options.say(block.join('\n'));
      }
    },
    // A profile judged against its faults-off control runs both with no other profile beside them: a relative
    // bound compares two runs, which must have had the same company.
    (u) => controlFirst(profiles[units[u].index], options),
  ).finally(dropWarmTargetStarts);
  const record = (report: ProfileReport, history: History, control?: ControlRun) => {
    reports.push(report);
    histories[historyKey(report, several)] = history;
    if (control) controls[historyKey(report, several)] = control;
  };
  for (const end of ends) {
    if ('skipped' in end) skipped.push(end.skipped);
    else record(end.result.report, end.result.history, end.result.control);
  }
  if (ends.length < units.length) {
    // Stopped: the profiles that never started are named by the last run, or, when it did not run (none started,
    // or it was n/a), by a report of the first of them that says the run was stopped before it.
    const last = ends.at(-1);
    const first = units[ends.length];
    const lastIndex = last && 'result' in last ? units[ends.length - 1].index : first.index;
    const notRun = [...new Set(units.slice(ends.length).map((u) => u.index))]
      .filter((i) => i !== lastIndex)
      .map((i) => profiles[i].profile.name);
    if (last && 'result' in last) {
      if (notRun.length > 0) last.result.report.notes.push(notRunNote(notRun));
    } else {
      const loaded = profiles[first.index];
      const seed = options.seed ?? loaded.profile.seed;
      const policy = options.policy ?? loaded.profile.client.policy;
      const stopped = interruptedReport(loaded, seed, policy, notRun, 'before this profile started');
      const report = named ? { ...stopped.report, pairing: first.pairing.name } : stopped.report;
      options.onProfileEnd?.(report, ends.length);
      record(report, stopped.history);
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
  return { run, histories, controls };
}

/** The profile runs its faults-off control first, as this run asks for it (faults off runs neither). */
function controlFirst(loaded: LoadedProfile, options: SuiteOptions): boolean {
  const subject = options.faultsOff ? withoutFaults(loaded) : loaded;
  return runsControlFirst(subject.profile, options.policy ?? loaded.profile.client.policy);
}

/** One profile in one pairing: n/a, or run with its progress lines and callbacks. */
async function runUnit(
  profiles: readonly LoadedProfile[],
  { index, pairing }: Unit,
  u: number,
  options: SuiteOptions,
  named: boolean,
  next: { warm: () => void; release?: () => void },
): Promise<UnitEnd> {
  const loaded = profiles[index];
  const profile = loaded.profile;
  const seed = options.seed ?? profile.seed;
  const policy = options.policy ?? profile.client.policy;
  const reason = notApplicable(profile, pairing);
  const at = `[${index + 1}/${profiles.length}] ${profile.name}${named ? ` [${pairing.name}]` : ''}`;
  if (reason) {
    options.say(`${at}: n/a (${reason})`);
    return { skipped: { profile: profile.name, pairing: pairing.name, reason } };
  }
  options.say(`${at} (seed ${seed}, policy ${policy}, ${profile.duration / 1000}s) ...`);
  options.onProfileStart?.(index, loaded, u);
  const subject = options.faultsOff ? withoutFaults(loaded) : loaded;
  // The next server boots while this run drains; when the next run sets up during that drain, while this run's
  // workload goes (a boot of a few hundred ms of one core beside a workload that leaves it idle). A profile run
  // after its faults-off control needs a second server first: the control warms it.
  const warmAt: ProfilePhase = next.release ? 'workload' : 'drain';
  let runsLeft = controlFirst(loaded, options) ? 2 : 1;
  const onPhase = (phase: ProfilePhase) => {
    if (phase === warmAt) {
      runsLeft -= 1;
      if (runsLeft > 0) warmTargetStart(profile.target);
      else next.warm();
    }
    if (phase === 'drain' && runsLeft === 0) next.release?.();
    options.onPhase?.(phase, u);
  };
  const runOptions: RunOptions = {
    ...options,
    seed,
    policy,
    pairing,
    onPhase,
    onProgress: options.onProgress && ((done, failed) => options.onProgress?.(done, failed, u)),
  };
  const result = await runWithControl(subject, runOptions, options.say).catch(async (error: unknown) => {
    // A set-up cut short by the interrupt is not a failure of the target, nor is one that failed because the
    // Ctrl-C reached a server child being spawned (core/signal-grace.ts).
    if (await stoppedAlongside(options.signal)) return interruptedReport(loaded, seed, policy, [], 'during its set-up');
    // The user's mistake (a profile, a target, a hook) is theirs to fix: one line, exit 2, the run ends.
    if (isUserFacing(error)) throw error;
    // Anything else ended this profile alone: it fails with the error named, and the suite goes on.
    options.say(
      `${at}: internal error, the profile could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return couldNotRunReport(loaded, seed, policy, error);
  });
  const tagged = named ? { ...result.report, pairing: pairing.name } : result.report;
  const report: ProfileReport = options.faultsOff ? { ...tagged, faultsOff: true as const } : tagged;
  options.onProfileEnd?.(report, u);
  const failed = report.thresholds.filter((t) => !t.ok).length;
  // An interrupted run, or one that could not run, is not judged on thresholds it never measured.
  const judged =
    report.error !== undefined
      ? `could not run: ${report.error.split('\n', 1)[0]}`
      : report.verdict === 'interrupted'
        ? 'thresholds not judged'
        : `${failed} of ${report.thresholds.length} thresholds failed`;
  options.say(
    `      ${report.verdict.toUpperCase()} in ${((report.durationMs ?? 0) / 1000).toFixed(1)}s: ${report.metrics.ops} ops, ${judged}`,
  );
  return { result: { ...result, report } };
}
