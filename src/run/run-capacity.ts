// faultline capacity: one profile at several load levels. Each level is two runs of the same plan (same seed, the
// profile's own mix, timeline and client): a no-fault control (the profile with its faults and thresholds taken
// out) and the faulted experiment, run one after the other on the suite runner. The review (measure/capacity.ts)
// sets them side by side and names the knee.
import type { History } from '../core/history.ts';
import { buildCapacityReview, type CapacityMode, type CapacityReview, type KneeRule } from '../measure/capacity.ts';
import type { ProfileReport, RunReport } from '../measure/run-report.ts';
import type { LoadedProfile } from '../profile/load.ts';
import type { Profile } from '../profile/schema.ts';
import { sameLink } from './faults-off.ts';
import { runSuite, type SuiteOptions } from './run-suite.ts';

export interface CapacityLevelRuns {
  level: number;
  control: LoadedProfile;
  faulted: LoadedProfile;
}

/** The run names of a level: `<profile>-c16` (16 in flight) or `<profile>-r50` (50 ops/s), `-nofault` for the control. */
function levelRunName(profile: string, mode: CapacityMode, level: number, control: boolean): string {
  return `${profile}-${mode === 'concurrency' ? 'c' : 'r'}${level}${control ? '-nofault' : ''}`;
}

function atLevel(profile: Profile, mode: CapacityMode, level: number): Profile['workload'] {
  const { rate: _rate, concurrency: _concurrency, ...rest } = profile.workload;
  return mode === 'concurrency' ? { ...rest, concurrency: level } : { ...rest, rate: level };
}

/** The two runs of every level, lowest level first. */
export function capacityRuns(
  loaded: LoadedProfile,
  mode: CapacityMode,
  levels: readonly number[],
): CapacityLevelRuns[] {
  const { profile } = loaded;
  return [...levels]
    .sort((a, b) => a - b)
    .map((level) => {
      const workload = atLevel(profile, mode, level);
      const faulted: Profile = { ...profile, name: levelRunName(profile.name, mode, level, false), workload };
      const control: Profile = {
        ...faulted,
        name: levelRunName(profile.name, mode, level, true),
        description: `no-fault control of ${profile.name} at ${level}`,
        faults: [],
        expect: [],
        controls: {},
      };
      return {
        level,
        control: { ...loaded, ...sameLink(loaded), profile: control },
        faulted: { ...loaded, profile: faulted },
      };
    });
}

export interface CapacityOptions extends SuiteOptions {
  mode: CapacityMode;
  levels: readonly number[];
  rule?: KneeRule;
  /** A level's two runs ended (for a progress line). */
  onLevel?: (level: number, control: ProfileReport, faulted: ProfileReport) => void;
}

export interface CapacityResult {
  run: RunReport & { capacity: CapacityReview };
  histories: Record<string, History>;
}

export async function runCapacity(loaded: LoadedProfile, options: CapacityOptions): Promise<CapacityResult> {
  const levels = capacityRuns(loaded, options.mode, options.levels);
  const reportOf = new Map<string, ProfileReport>();
  const { run, histories } = await runSuite(
    levels.flatMap((l) => [l.control, l.faulted]),
    {
      ...options,
      onProfileEnd: (report, run) => {
        options.onProfileEnd?.(report, run);
        reportOf.set(report.name, report);
        const level = levels.find((l) => l.faulted.profile.name === report.name);
        const control = level && reportOf.get(level.control.profile.name);
        if (level && control) options.onLevel?.(level.level, control, report);
      },
    },
  );
  const done = levels.filter((l) => reportOf.has(l.control.profile.name) && reportOf.has(l.faulted.profile.name));
  const capacity = buildCapacityReview({
    profile: loaded.profile.name,
    mode: options.mode,
    rule: options.rule,
    levels: done.map((l) => ({
      level: l.level,
      control: reportOf.get(l.control.profile.name)!,
      faulted: reportOf.get(l.faulted.profile.name)!,
    })),
  });
  return { run: { ...run, capacity }, histories };
}
