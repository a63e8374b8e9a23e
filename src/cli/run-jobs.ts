// How many profiles `faultline run` runs at once (--jobs). Profiles run at once when each has its own everything:
// its own server (the reference server child, a stdio command started per profile), its own proxies (an embedded
// Toxiproxy or a container per profile), its own temporary files. Where two profiles could confound each other,
// one at a time, and the run says why when more were asked for.
import type { LoadedProfile } from '../profile/load.ts';
import { sharesServer } from '../run/trace-key.ts';

/** The run flags that decide it (cli/run-command.ts RunFlags). */
interface JobsFlags {
  jobs?: number;
  toxiproxy: string;
  clientModule?: string;
  policy?: string;
  shard?: unknown;
  baseline?: string;
}

/** The most --jobs accepts. */
export const MAX_JOBS = 16;

/**
 * Profiles at once when --jobs is not given. One: two at once on a loaded 2-core machine broke count thresholds of
 * the default suite that one at a time held (docs/scale.md "Profiles at once").
 */
export const DEFAULT_JOBS = 1;

/** Why profiles run one at a time under these flags, or undefined when they may run at once. */
function oneAtATimeBecause(flags: JobsFlags, loaded: readonly LoadedProfile[]): string | undefined {
  const shared = loaded.find((l) => sharesServer(l.profile.target.kind));
  if (shared)
    return `${shared.profile.name} reaches a server every profile shares (target ${shared.profile.target.kind}): effects and faults of two profiles would mix`;
  if (/^https?:\/\//i.test(flags.toxiproxy))
    return 'one external Toxiproxy holds every proxy, named by profile: a profile in two pairings would replace its own';
  const module = flags.clientModule ?? loaded.find((l) => l.profile.client.module && flags.policy === undefined)?.file;
  if (module)
    return `a client module (${module}) is loaded once into this process: profiles at once would share its state`;
  if (flags.shard) return '--shard: the shards are the run split up, each sized for one profile at a time';
  if (flags.baseline)
    return "--baseline: the baseline's latency and recovery values were measured one profile at a time";
  return undefined;
}

/**
 * Whether the next profile sets up while the last one drains (the drain only waits for the last one's server to
 * go quiet): where profiles could run at once, for the same reasons.
 */
export function setsUpDuringDrain(flags: JobsFlags, loaded: readonly LoadedProfile[]): boolean {
  return oneAtATimeBecause(flags, loaded) === undefined;
}

/** The profiles at once for this run, saying why it is one when more were asked for. */
export function runJobs(flags: JobsFlags, loaded: readonly LoadedProfile[], say: (line: string) => void): number {
  const because = oneAtATimeBecause(flags, loaded);
  if (because === undefined) return flags.jobs ?? DEFAULT_JOBS;
  if (flags.jobs !== undefined && flags.jobs > 1)
    say(`faultline: --jobs ${flags.jobs}: one profile at a time, as ${because}`);
  return 1;
}
