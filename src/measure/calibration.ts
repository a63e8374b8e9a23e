// What the start-up calibration (run/calibrate.ts) and the load watched during the run mean for one profile's time
// bounds. The rule (docs/calibration.md):
//
//   excess  = max(0, calibration p95 - REFERENCE_P95_MS)            how much slower than a quiet machine a call is
//   margin  = MARGIN_CALLS x excess                                  what that can add to a time a bound spans
//   machine delay = margin + the machine's part of the longest event-loop stall watched during the run
//
// A time upper bound missed by no more than the machine delay is inconclusive; missed by more, it fails; held, it
// passes. Nothing else is touched by load: counts, rates of counts, effects, hits and n/a are judged as measured.
// `tooLoaded` still says when the machine looked too slow for the profile's timing (a calibration ping timed out,
// the p95 is over a quarter of the attempt timeout or of the shortest fault window, the rate probe could not keep
// up, or the loops stalled during the run): information beside the verdict, never the verdict.
//
// Client timeouts are checked, never scaled: they are part of the behaviour under test (a profile may set an
// attempt timeout under a fault's delay on purpose). Thresholds are not rewritten: each result keeps its target and
// carries the machine delay it was compared with.
import { type LoopLag, machineStallMs } from '../core/loop-lag.ts';

/** The rate probe: pings at the workload's own arrival rate (open model) or concurrency (closed model). */
export interface ProbeSample {
  model: 'open' | 'closed';
  /** Open model: the calls per second offered (the workload's rate, this shard's share of it). */
  intendedRate?: number;
  /** Closed model: the pings in flight at once (the workload's workers). */
  concurrency?: number;
  /** Probe pings sent (and answered or timed out). */
  calls: number;
  timedOut: number;
  /** Completions per second, between the first and the last completion (absent with fewer than 3). */
  achievedRate?: number;
  /** From each ping's intended start (open model: its slot on the schedule) to its answer, ms. */
  p50Ms?: number;
  p95Ms?: number;
  maxMs?: number;
  /** How long the probe took, ms. */
  durationMs: number;
  /** A probe ping got an answer that was not a pong: the probe is not judged. */
  unavailable?: string;
  /** Why no probe ran (the idle pings showed calls at this rate cannot queue: run/calibrate.ts PROBE_UTILIZATION). */
  skipped?: string;
}

/**
 * A workload tool the target calls read-only, timed one call at a time after the idle pings: what a tool call
 * costs, not only a ping. Reported, never judged (no margin, no inconclusive: a tool that errors says nothing
 * about the machine).
 */
export interface ToolCallSample {
  tool: string;
  /** Calls measured (after one warm-up call), answered or not. */
  calls: number;
  timedOut: number;
  /** Calls answered with an error (isError or a JSON-RPC error). */
  errors: number;
  /** The first error, cut short. */
  error?: string;
  /** Every measured call, from its start to its answer (errors too), ms. */
  p50Ms?: number;
  p95Ms?: number;
  maxMs?: number;
}

/** What the calibration measured (run/calibrate.ts). */
export interface CalibrationSample {
  /** Pings measured (after the warm-up). */
  calls: number;
  /** Pings that ran out of time (the client's attempt timeout). */
  timedOut: number;
  p50Ms?: number;
  p95Ms?: number;
  maxMs?: number;
  /** Why there is nothing to calibrate with (the server does not answer ping): no margin, no inconclusive. */
  unavailable?: string;
  /** The rate probe after the idle pings (absent when there was nothing to calibrate with). */
  probe?: ProbeSample;
  /** A read-only workload tool timed after the idle pings (absent when the workload has none). */
  toolCall?: ToolCallSample;
}

/** The parts of a profile whose timing the calibration is judged against. */
export interface ProfileTiming {
  attemptTimeoutMs: number;
  /** The shortest fault window (stop - start), ms; absent without a window that closes. */
  shortestWindowMs?: number;
}

/** The event loops' stalls while the workload ran: the harness's own, and the server's where the target can tell. */
export interface RunLoad {
  harness?: LoopLag;
  server?: LoopLag;
}

export interface Calibration extends CalibrationSample {
  /** The no-fault p95 of a quiet machine (the figure the margin is measured from). */
  referenceP95Ms: number;
  /** What the calibration's slowness can add to a time bound, ms (0 on a machine as fast as the reference). */
  marginMs: number;
  /** Why the machine looked too loaded for this profile's timing: information, not the verdict. */
  tooLoaded?: string;
  /** How the machine held up while the workload ran (absent when nothing was watched). */
  duringRun?: RunLoad;
}

/**
 * The calibration ping p95 taken as a quiet machine's, ms. An estimate: every calibration measured while this was
 * written ran on 2 cores at load 11-23 (p95 16-241 ms); a quiet run should confirm or replace it.
 */
export const REFERENCE_P95_MS = 5;
/** Round trips a time bound is assumed to span (an op's first attempt, a retry after backoff, a recovery window's ops). */
export const MARGIN_CALLS = 4;
/** A no-fault call may use at most this share of the client's attempt timeout, and of the shortest fault window. */
export const LOAD_SHARE = 0.25;
/** An open-model probe that completes fewer calls per second than this share of the intended rate cannot keep up. */
export const KEEP_UP_SHARE = 0.8;

export function assessCalibration(sample: CalibrationSample, timing: ProfileTiming): Calibration {
  const base = { ...sample, referenceP95Ms: REFERENCE_P95_MS };
  if (sample.unavailable !== undefined || sample.p95Ms === undefined) return { ...base, marginMs: 0 };
  const p95 = sample.p95Ms;
  const marginMs = Math.round(MARGIN_CALLS * Math.max(0, p95 - REFERENCE_P95_MS));
  const tooLoaded = tooLoadedFor(sample, p95, timing);
  return { ...base, marginMs, ...(tooLoaded && { tooLoaded }) };
}

function tooLoadedFor(sample: CalibrationSample, p95: number, timing: ProfileTiming): string | undefined {
  const share = `${LOAD_SHARE * 100}%`;
  if (sample.timedOut > 0) {
    return `${sample.timedOut} of ${sample.calls} calibration pings took longer than the attempt timeout (${timing.attemptTimeoutMs} ms) with no fault on`;
  }
  if (p95 > LOAD_SHARE * timing.attemptTimeoutMs) {
    return `calibration p95 ${p95} ms is over ${share} of the client's attempt timeout (${timing.attemptTimeoutMs} ms): the machine is too loaded for this profile's timing`;
  }
  if (timing.shortestWindowMs !== undefined && p95 > LOAD_SHARE * timing.shortestWindowMs) {
    return `calibration p95 ${p95} ms is over ${share} of the shortest fault window (${timing.shortestWindowMs} ms): the machine is too loaded for this profile's timing`;
  }
  return sample.probe && probeTooLoaded(sample.probe, timing);
}

function probeTooLoaded(probe: ProbeSample, timing: ProfileTiming): string | undefined {
  if (probe.unavailable !== undefined || probe.skipped !== undefined) return undefined;
  const share = `${LOAD_SHARE * 100}%`;
  const at =
    probe.model === 'open'
      ? `at the workload's rate (${probe.intendedRate}/s)`
      : `at the workload's concurrency (${probe.concurrency})`;
  if (probe.timedOut > 0) {
    return `${probe.timedOut} of ${probe.calls} calibration probe pings ${at} took longer than the attempt timeout (${timing.attemptTimeoutMs} ms) with no fault on`;
  }
  const rate = probe.achievedRate;
  if (probe.intendedRate !== undefined && rate !== undefined && rate < KEEP_UP_SHARE * probe.intendedRate) {
    return `the calibration probe ${at} completed ${rate} calls/s, under ${KEEP_UP_SHARE * 100}% of the intended ${probe.intendedRate}/s: the machine cannot keep up with this profile's load`;
  }
  const p95 = probe.p95Ms;
  if (p95 !== undefined && p95 > LOAD_SHARE * timing.attemptTimeoutMs) {
    return `calibration probe p95 ${p95} ms ${at} is over ${share} of the client's attempt timeout (${timing.attemptTimeoutMs} ms): the machine is too loaded for this profile's load`;
  }
  if (p95 !== undefined && timing.shortestWindowMs !== undefined && p95 > LOAD_SHARE * timing.shortestWindowMs) {
    return `calibration probe p95 ${p95} ms ${at} is over ${share} of the shortest fault window (${timing.shortestWindowMs} ms): the machine is too loaded for this profile's load`;
  }
  return undefined;
}

/**
 * The calibration with the load watched during the run. When the machine's part of a loop's longest stall (the
 * stall times the share of ready time spent waiting for a CPU) is over LOAD_SHARE of the attempt timeout, the
 * machine became too loaded (the start-up judgement, when there was one, stays the reason). The attempt timeout is the
 * timer a stall turns into a wrong answer (a reply read after its timeout fired: a failed op whose effect
 * happened); fault windows are judged at the start only, since a window's hits are counted, not assumed. A stall
 * the process caused itself (a 20 MB payload parsed) is the system's behaviour, not the machine's, and where the
 * system does not count the wait (not Linux) stalls are reported, not judged.
 */
export function withRunLoad(calibration: Calibration, load: RunLoad, attemptTimeoutMs: number): Calibration {
  if (!load.harness && !load.server) return calibration;
  const stalled = calibration.tooLoaded ?? stalledFor(load, attemptTimeoutMs);
  return { ...calibration, duringRun: load, ...(stalled && { tooLoaded: stalled }) };
}

function stalledFor(load: RunLoad, attemptTimeoutMs: number): string | undefined {
  for (const [who, lag] of [
    ['the harness', load.harness],
    ['the server', load.server],
  ] as const) {
    const machineMs = lag && machineStallMs(lag);
    if (lag && machineMs !== undefined && machineMs > LOAD_SHARE * attemptTimeoutMs) {
      const waited = Math.round((lag.cpuWaitShare ?? 0) * 100);
      return `during the run ${who}'s event loop stalled for up to ${lag.maxMs} ms while it waited ${waited}% of its ready time for a CPU other processes held: the machine's ${machineMs} ms of that stall is over ${LOAD_SHARE * 100}% of the client's attempt timeout (${attemptTimeoutMs} ms), so the machine became too loaded for this profile's timing after the calibration`;
    }
  }
  return undefined;
}

/**
 * How much later than on a quiet machine a time this run measured can come, ms: the calibration's margin plus the
 * machine's part of the longest event-loop stall watched during the run (harness or server, the longer). A missed
 * time upper bound within it is inconclusive (measure/thresholds.ts).
 */
export function machineDelayMs(calibration: Calibration | undefined): number {
  if (!calibration) return 0;
  const { harness, server } = calibration.duringRun ?? {};
  const stalls = [harness, server].map((lag) => (lag && machineStallMs(lag)) ?? 0);
  return calibration.marginMs + Math.max(0, ...stalls);
}
