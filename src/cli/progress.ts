// Progress of a run for a person watching: on a terminal one live status line (profile, phase, ops, failures,
// elapsed and remaining time) redrawn in place under the log lines; without a terminal, or with CI=true, a plain
// line every few seconds. Plain ANSI on stderr (no progress library is installed; this needs one line only).
// Several profiles in flight (`--jobs`) share the line, each with its phase and ops.
import type { ProfileReport } from '../measure/run-report.ts';
import type { LoadedProfile } from '../profile/load.ts';
import type { ProfilePhase } from '../run/run-profile.ts';

export interface ProgressOptions {
  stream: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };
  /** Live line in place (default: stream.isTTY and not CI=true). */
  live?: boolean;
  /** Redraw (live) or print (plain) interval, ms. */
  intervalMs?: number;
  /** Profiles run at once (--jobs): the time left is shared among them. */
  jobs?: number;
  now?: () => number;
}

/** Set-up, drain and measuring per profile, before any profile has finished and shown the real figure. */
const DEFAULT_OVERHEAD_MS = 2500;

/** A profile run in flight. */
interface Flight {
  index: number;
  name: string;
  durationMs: number;
  startedAt: number;
  opsCap: number | undefined;
  phase: ProfilePhase | undefined;
  workloadAt: number | undefined;
  ops: number;
  failed: number;
}

export class Progress {
  private readonly live: boolean;
  private readonly now: () => number;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  /** By run (a profile in one pairing), in the order they started. */
  private readonly flights = new Map<number, Flight>();
  private readonly overheads: number[] = [];
  private shown = false;
  private stopped = false;

  constructor(
    private readonly profiles: readonly LoadedProfile[],
    private readonly options: ProgressOptions,
  ) {
    this.live = options.live ?? (options.stream.isTTY === true && process.env.CI !== 'true');
    this.now = options.now ?? Date.now;
    this.started = this.now();
    const interval = options.intervalMs ?? (this.live ? 250 : 10_000);
    this.timer = setInterval(() => (this.live ? this.draw() : this.plain()), interval);
    this.timer.unref();
  }

  /** A log line: above the live line on a terminal, as is elsewhere. */
  readonly log = (line: string): void => {
    this.clear();
    this.options.stream.write(`${line}\n`);
    this.draw();
  };

  /** `run` tells runs in flight at once apart (default: the profile's index). */
  readonly onProfileStart = (index: number, loaded: LoadedProfile, run = index): void => {
    this.flights.set(run, {
      index,
      name: loaded.profile.name,
      durationMs: loaded.profile.duration,
      startedAt: this.now(),
      // A closed-model run of exactly `ops` ops lasts as long as they take, not its duration.
      opsCap: loaded.profile.workload?.concurrency !== undefined ? loaded.profile.workload.ops : undefined,
      phase: undefined,
      workloadAt: undefined,
      ops: 0,
      failed: 0,
    });
    this.draw();
  };

  readonly onPhase = (phase: ProfilePhase, run?: number): void => {
    const flight = this.flight(run);
    if (!flight) return;
    flight.phase = phase;
    if (phase === 'workload') flight.workloadAt = this.now();
    this.draw();
  };

  readonly onProgress = (opsDone: number, opsFailed: number, run?: number): void => {
    const flight = this.flight(run);
    if (!flight) return;
    flight.ops = opsDone;
    flight.failed = opsFailed;
  };

  readonly onProfileEnd = (_report: ProfileReport, run?: number): void => {
    const flight = this.flight(run);
    if (flight) this.overheads.push(Math.max(0, this.now() - flight.startedAt - flight.durationMs));
    this.flights.delete(run ?? [...this.flights.keys()].at(-1)!);
    this.clear();
  };

  /** Removes the live line for good: call before printing the summary (and on Ctrl-C). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  /**
   * The status as one line, e.g. "[2/39] dependency-5xx workload · 42 ops, 3 failed · 2.1/3.5 s · 0:45 elapsed,
   * ~2:10 left"; a run of a fixed op count shows "4200/100000 ops" and its workload time so far. Several in flight:
   * "[2/39] a workload · 42 ops, 3 failed | [3/39] b set-up · 0 ops, 0 failed · 0:45 elapsed, ~1:05 left".
   */
  status(): string | undefined {
    const flights = [...this.flights.values()];
    if (flights.length === 0) return undefined;
    const now = this.now();
    const parts = flights.map((f) => {
      const inWorkload = f.workloadAt === undefined ? 0 : now - f.workloadAt;
      const ops = f.opsCap === undefined ? `${f.ops} ops` : `${f.ops}/${f.opsCap} ops`;
      const at = `[${f.index + 1}/${this.profiles.length}] ${f.name} ${f.phase ?? 'starting'} · ${ops}, ${f.failed} failed`;
      if (flights.length > 1) return at;
      const time =
        f.opsCap === undefined
          ? `${seconds(Math.min(inWorkload, f.durationMs))}/${seconds(f.durationMs)} s`
          : `${seconds(inWorkload)} s`;
      return `${at} · ${time}`;
    });
    return `${parts.join(' | ')} · ${clock(now - this.started)} elapsed, ~${clock(this.remainingMs(now))} left`;
  }

  /** The run given, or without one the last to start (a caller with one run at a time). */
  private flight(run: number | undefined): Flight | undefined {
    return run === undefined ? [...this.flights.values()].at(-1) : this.flights.get(run);
  }

  /** What is left of a run's workload: by its duration, or by its op count at the pace so far. */
  private workloadLeftMs(f: Flight, inWorkload: number): number {
    if (f.opsCap === undefined || f.ops === 0) return Math.max(0, f.durationMs - inWorkload);
    return (Math.max(0, f.opsCap - f.ops) * inWorkload) / f.ops;
  }

  /** The runs in flight and the profiles after them, shared among the jobs. */
  private remainingMs(now: number): number {
    const flights = [...this.flights.values()];
    const overhead =
      this.overheads.length === 0
        ? DEFAULT_OVERHEAD_MS
        : this.overheads.reduce((a, b) => a + b, 0) / this.overheads.length;
    const after = Math.max(...flights.map((f) => f.index)) + 1;
    const rest = this.profiles.slice(after).reduce((n, l) => n + l.profile.duration + overhead, 0);
    const here = flights.reduce((n, f) => {
      const inWorkload = f.workloadAt === undefined ? 0 : now - f.workloadAt;
      return n + this.workloadLeftMs(f, inWorkload) + (f.phase === 'measure' ? 0 : overhead / 2);
    }, 0);
    return (here + rest) / Math.max(1, this.options.jobs ?? 1);
  }

  private draw(): void {
    if (!this.live || this.stopped) return;
    const line = this.status();
    if (!line) return;
    const width = Math.max(20, (this.options.stream.columns ?? 100) - 1);
    this.options.stream.write(`\r\u001b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.shown = true;
  }

  private clear(): void {
    if (!this.live || !this.shown) return;
    this.options.stream.write('\r\u001b[2K');
    this.shown = false;
  }

  private plain(): void {
    if (this.stopped) return;
    const line = this.status();
    if (line) this.options.stream.write(`faultline: ${line}\n`);
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

/** "0:45", "12:03" */
function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
