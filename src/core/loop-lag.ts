// How late a process's event loop ran, and how much of that the machine caused. A loop that stalls runs every timer
// and every read late: an attempt timeout can fire before a reply that arrived in time is read (timers run before
// I/O in a loop turn), and a fault window can close before the calls meant to cross it were sent. A stall is the
// process's own work (parsing a 20 MB payload) or the machine's: other processes holding the cores while this one
// was ready to run. Linux counts the latter per thread (/proc/thread-self/schedstat: time on a CPU, time waiting for
// one); the share of ready time spent waiting says how much of a stall was the machine's. The start-up
// calibration cannot see load that rises after it; this watch, kept over the workload in the harness and in the
// reference server, can (measure/calibration.ts judges it).
import { readFileSync } from 'node:fs';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the loop is sampled, ms: a stall shorter than this is not seen, and each sample counts it as delay. */
const RESOLUTION_MS = 10;

/** Event-loop stalls over a stretch of time, beyond the sampling resolution, ms. */
export interface LoopLag {
  p99Ms: number;
  maxMs: number;
  /** Samples taken (about one per RESOLUTION_MS the loop was free). */
  samples: number;
  /**
   * Of the time the loop's thread was ready to run, the share it waited for a CPU other processes held (0 on an
   * idle machine); absent where the system does not count it (not Linux).
   */
  cpuWaitShare?: number;
}

interface SchedStat {
  onCpuNs: number;
  waitingNs: number;
}

export class LoopLagWatch {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private since = schedStat();

  constructor() {
    this.histogram.enable();
  }

  /** The stalls since the watch started or was last read (undefined before the first sample); then starts over. */
  read(): LoopLag | undefined {
    const h = this.histogram;
    const now = schedStat();
    const share = this.since && now && waitShare(this.since, now);
    const lag =
      h.count === 0
        ? undefined
        : {
            p99Ms: beyondResolution(h.percentile(99)),
            maxMs: beyondResolution(h.max),
            samples: h.count,
            ...(share !== undefined && { cpuWaitShare: share }),
          };
    h.reset();
    this.since = now;
    return lag;
  }

  /** The last read, and the sampling timer stopped. */
  stop(): LoopLag | undefined {
    const lag = this.read();
    this.histogram.disable();
    return lag;
  }
}

/** Of two stretches watched in different processes, the worse one (the larger stall the machine caused). */
export function worseLag(a: LoopLag | undefined, b: LoopLag | undefined): LoopLag | undefined {
  if (!a || !b) return a ?? b;
  return (machineStallMs(a) ?? a.maxMs) >= (machineStallMs(b) ?? b.maxMs) ? a : b;
}

/**
 * The machine's part of the longest stall, ms: the stall times the share of ready time spent waiting for a CPU.
 * Undefined where the system does not say (the stall alone cannot tell the machine's load from the process's work).
 */
export function machineStallMs(lag: LoopLag): number | undefined {
  return lag.cpuWaitShare === undefined ? undefined : Math.round(lag.maxMs * lag.cpuWaitShare * 10) / 10;
}

/** This thread's CPU time and run-queue wait so far; undefined off Linux (or where /proc is not mounted). */
function schedStat(): SchedStat | undefined {
  try {
    const [onCpu, waiting] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return Number.isFinite(onCpu) && Number.isFinite(waiting) ? { onCpuNs: onCpu, waitingNs: waiting } : undefined;
  } catch {
    return undefined;
  }
}

function waitShare(from: SchedStat, to: SchedStat): number | undefined {
  const onCpu = to.onCpuNs - from.onCpuNs;
  const waiting = to.waitingNs - from.waitingNs;
  if (onCpu + waiting <= 0) return undefined;
  return Math.round((waiting / (onCpu + waiting)) * 1000) / 1000;
}

const beyondResolution = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 10) / 10);
