// Progress of a run for a person watching: on a terminal one live status line (profile, phase, ops, failures,
// elapsed and remaining time) redrawn in place under the log lines; without a terminal, or with CI=true, a plain
// line every few seconds. Plain ANSI on stderr (no progress library is installed; this needs one line only).
import type { ProfileReport } from '../measure/run-report.ts';
import type { LoadedProfile } from '../profile/load.ts';
import type { ProfilePhase } from '../run/run-profile.ts';

export interface ProgressOptions {
  stream: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };
  /** Live line in place (default: stream.isTTY and not CI=true). */
  live?: boolean;
  /** Redraw (live) or print (plain) interval, ms. */
  intervalMs?: number;
  now?: () => number;
}

/** Set-up, drain and measuring per profile, before any profile has finished and shown the real figure. */
const DEFAULT_OVERHEAD_MS = 2500;

export class Progress {
  private readonly live: boolean;
  private readonly now: () => number;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  private current:
    | { index: number; name: string; durationMs: number; startedAt: number; opsCap: number | undefined }
    | undefined;
  private phase: ProfilePhase | undefined;
  private workloadAt: number | undefined;
  private ops = 0;
  private failed = 0;
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

  readonly onProfileStart = (index: number, loaded: LoadedProfile): void => {
    this.current = {
      index,
      name: loaded.profile.name,
      durationMs: loaded.profile.duration,
      startedAt: this.now(),
      // A closed-model run of exactly `ops` ops lasts as long as they take, not its duration.
      opsCap: loaded.profile.workload?.concurrency !== undefined ? loaded.profile.workload.ops : undefined,
    };
    this.phase = undefined;
    this.workloadAt = undefined;
    this.ops = 0;
    this.failed = 0;
    this.draw();
  };

  readonly onPhase = (phase: ProfilePhase): void => {
    this.phase = phase;
    if (phase === 'workload') this.workloadAt = this.now();
    this.draw();
  };

  readonly onProgress = (opsDone: number, opsFailed: number): void => {
    this.ops = opsDone;
    this.failed = opsFailed;
  };

  readonly onProfileEnd = (_report: ProfileReport): void => {
    if (this.current) this.overheads.push(Math.max(0, this.now() - this.current.startedAt - this.current.durationMs));
    this.current = undefined;
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
   * ~2:10 left"; a run of a fixed op count shows "4200/100000 ops" and its workload time so far.
   */
  status(): string | undefined {
    const c = this.current;
    if (!c) return undefined;
    const now = this.now();
    const inWorkload = this.workloadAt === undefined ? 0 : now - this.workloadAt;
    const ops = c.opsCap === undefined ? `${this.ops} ops` : `${this.ops}/${c.opsCap} ops`;
    const profile =
      c.opsCap === undefined
        ? `${seconds(Math.min(inWorkload, c.durationMs))}/${seconds(c.durationMs)} s`
        : `${seconds(inWorkload)} s`;
    return `[${c.index + 1}/${this.profiles.length}] ${c.name} ${this.phase ?? 'starting'} · ${ops}, ${this.failed} failed · ${profile} · ${clock(now - this.started)} elapsed, ~${clock(this.remainingMs(inWorkload))} left`;
  }

  /** What is left of the current profile's workload: by its duration, or by its op count at the pace so far. */
  private workloadLeftMs(inWorkload: number): number {
    const c = this.current;
    if (!c) return 0;
    if (c.opsCap === undefined || this.ops === 0) return Math.max(0, c.durationMs - inWorkload);
    return (Math.max(0, c.opsCap - this.ops) * inWorkload) / this.ops;
  }

  private remainingMs(inWorkload: number): number {
    const c = this.current;
    if (!c) return 0;
    const overhead =
      this.overheads.length === 0
        ? DEFAULT_OVERHEAD_MS
        : this.overheads.reduce((a, b) => a + b, 0) / this.overheads.length;
    const rest = this.profiles.slice(c.index + 1).reduce((n, l) => n + l.profile.duration + overhead, 0);
    const here = this.workloadLeftMs(inWorkload) + (this.phase === 'measure' ? 0 : overhead / 2);
    return here + rest;
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
