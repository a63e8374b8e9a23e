// The start-up calibration: before the workload and before any fault window, MCP `ping` requests through the very
// path the ops take (session, fetch chain, Toxiproxy proxy, the server's transport and JSON-RPC layer). A ping
// touches no tool, dependency, ledger or seeded decision, so it cannot change what the profile measures. First a
// few idle pings, one at a time (the pair's no-fault latency); then a short probe at the workload's own arrival
// rate (open model) or concurrency (closed model), which shows whether this machine keeps up with what the profile
// is about to offer, where the idle pings say calls at that load could queue at all (probeNeedless).
// measure/calibration.ts judges both against the profile's timing. Where the workload has a
// read-only tool, a few calls of it, one at a time, say what a tool call costs too: reported, not judged.
import type { Session } from '../client/session.ts';
import { epochMs } from '../core/clock.ts';
import { RandomStream } from '../core/random.ts';
import { type Shard, workerShare } from '../core/shard.ts';
import { sleep } from '../core/sleep.ts';
import { findFaultKind } from '../faults/registry.ts';
import {
  assessCalibration,
  type Calibration,
  type CalibrationSample,
  type ProbeSample,
  type ProfileTiming,
  type ToolCallSample,
} from '../measure/calibration.ts';
import { latencySummary, msFields } from '../measure/latency.ts';
import { generate } from '../profile/generators.ts';
import type { Profile } from '../profile/schema.ts';
import type { ToolTraits } from '../server/tools/catalog.ts';

/** Pings whose time is not kept (the first request of a connection pays for JIT and connection set-up). */
const WARM_UP = 2;
/** Pings measured: enough for a p95 that is not just the maximum, few enough to cost well under a second. */
const CALIBRATION_CALLS = 20;
/**
 * How long the rate probe offers the workload's load: long enough to see a queue form, short enough to run before
 * every profile of a suite (it is information beside the verdict, never the verdict).
 */
const PROBE_MS = 200;
/** At least this many probe calls (a low rate takes longer than PROBE_MS), at most this many (a very high rate less). */
const PROBE_MIN_CALLS = 5;
const PROBE_MAX_CALLS = 100;
/**
 * The open-model probe runs only when the workload's rate times the idle pings' p95 (the share of each second a
 * call keeps the pair busy, at most) reaches this. Below it, calls at that rate cannot queue enough to fall behind:
 * each is done long before the next arrives, and queueing adds under a sixth of a call's time (M/D/1), so the probe
 * would repeat the idle pings at a cost of 0.2 to 0.8 s. A busy machine's slower pings raise it, and the probe runs.
 */
export const PROBE_UTILIZATION = 0.25;
/** Read-only tool calls measured (after one warm-up call): a tool call costs more than a ping, so fewer. */
const TOOL_CALLS = 5;
/**
 * No measured tool call starts once the measured ones took this long (the first always runs): the number is
 * reported, not judged, and a tool with a large answer (oversized-payloads' 10 MB search page) cost 7-8 s of
 * set-up for six calls on a loaded machine, and still 1 s of the default suite's set-up with a 1 s budget.
 */
const TOOL_BUDGET_MS = 300;

/** What the calibration needs to time a read-only workload tool: what each tool does, and the run's seed. */
export interface ToolCallProbe {
  traitsOf: (tool: string) => ToolTraits;
  seed: number;
}

/** What the probe offers: the workload's arrival rate (open model) or its workers (closed model), a shard's share. */
type OfferedLoad = { intendedRate: number } | { concurrency: number };

type PingOutcome = { ms: number; timedOut?: true } | { unavailable: string } | { stopped: true };

/** Calibrates the pair and judges the result against the profile's timing. */
export async function calibrateFor(
  profile: Profile,
  session: Session,
  signal: AbortSignal,
  opShard?: Shard,
  tools?: ToolCallProbe,
): Promise<Calibration> {
  const timeoutMs = profile.client.attemptTimeoutMs;
  const stop = pingSignals(signal);
  let sample: CalibrationSample;
  try {
    const idle = await calibrateIdle(session, timeoutMs, stop);
    const call = tools && readOnlyCall(profile, tools);
    const toolCall = call && !signal.aborted ? await timeToolCall(session, call, timeoutMs, stop) : undefined;
    sample =
      idle.unavailable === undefined && !signal.aborted
        ? { ...idle, probe: await probe(profile, session, timeoutMs, stop, idle, opShard) }
        : idle;
    if (toolCall) sample.toolCall = toolCall;
  } finally {
    stop.close();
  }
  return assessCalibration(sample, timingOf(profile, timeoutMs));
}

/** What the calibration is judged against: the attempt timeout and the shortest window calls must cross. */
export function timingOf(profile: Pick<Profile, 'faults'>, attemptTimeoutMs: number): ProfileTiming {
  const windows = profile.faults.flatMap((f) =>
    // An op window has no length in time: its ops meet it however long they take.
    f.start === undefined || f.stop === undefined || findFaultKind(f.seam, f.kind)?.actsAtStart
      ? []
      : [f.stop - f.start],
  );
  return { attemptTimeoutMs, ...(windows.length > 0 && { shortestWindowMs: Math.min(...windows) }) };
}

async function calibrateIdle(session: Session, timeoutMs: number, stop: PingSignals): Promise<CalibrationSample> {
  const durations: number[] = [];
  let timedOut = 0;
  for (let i = 0; i < WARM_UP + CALIBRATION_CALLS; i++) {
    const outcome = await pingOnce(session, timeoutMs, stop, epochMs());
    if ('stopped' in outcome) break;
    if ('unavailable' in outcome) return { calls: 0, timedOut: 0, unavailable: outcome.unavailable };
    if (outcome.timedOut) timedOut++;
    if (i >= WARM_UP) durations.push(outcome.ms);
  }
  const s = latencySummary(durations);
  return { calls: durations.length, timedOut, ...msFields(s) };
}

/**
 * The rate probe. Open model: pings on the workload's schedule (one every 1/rate s), each timed from its intended
 * start as the workload's ops are (a late start is queueing). Closed model: the workload's number of workers, each
 * pinging back to back. Achieved rate: completions per second between the first and the last completion, which a
 * plain latency (a slow link) leaves at the intended rate and a pair short of capacity holds at its own.
 */
async function probe(
  profile: Profile,
  session: Session,
  timeoutMs: number,
  stop: PingSignals,
  idle: CalibrationSample,
  opShard?: Shard,
): Promise<ProbeSample> {
  const { signal } = stop;
  const { rate, concurrency } = profile.workload;
  // A shard of a profile split by ops offers its share of the rate, or of the workers.
  const offered: OfferedLoad =
    rate !== undefined
      ? { intendedRate: rate / (opShard?.count ?? 1) }
      : { concurrency: opShard ? workerShare(opShard, concurrency!) : concurrency! };
  const skipped = probeNeedless(offered, idle);
  if (skipped) return skipped;
  const latencies: number[] = [];
  const ends: number[] = [];
  let timedOut = 0;
  let failed: string | undefined;
  const call = async (intendedMs: number) => {
    const outcome = await pingOnce(session, timeoutMs, stop, intendedMs);
    if ('stopped' in outcome) return;
    if ('unavailable' in outcome) failed ??= outcome.unavailable;
    else {
      latencies.push(outcome.ms);
      if (outcome.timedOut) timedOut++;
      else ends.push(epochMs());
    }
  };
  const start = epochMs();
  let model: Pick<ProbeSample, 'model' | 'intendedRate' | 'concurrency'>;
  if ('intendedRate' in offered) {
    const { intendedRate } = offered;
    const calls = Math.min(PROBE_MAX_CALLS, Math.max(PROBE_MIN_CALLS, Math.round((intendedRate * PROBE_MS) / 1000)));
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < calls && !signal.aborted; i++) {
      const intended = start + (i * 1000) / intendedRate;
      await sleep(intended - epochMs(), signal);
      inFlight.push(call(intended));
    }
    await Promise.all(inFlight);
    model = { model: 'open', intendedRate: round1(intendedRate) };
  } else {
    const workers = offered.concurrency;
    const worker = async () => {
      do await call(epochMs());
      while (!signal.aborted && failed === undefined && epochMs() - start < PROBE_MS);
    };
    await Promise.all(Array.from({ length: workers }, worker));
    model = { model: 'closed', concurrency: workers };
  }
  const s = latencySummary(latencies);
  ends.sort((a, b) => a - b);
  const span = ends.length >= 3 ? ends[ends.length - 1] - ends[0] : 0;
  return {
    ...model,
    calls: latencies.length,
    timedOut,
    durationMs: Math.round(epochMs() - start),
    ...(span > 0 && { achievedRate: round1(((ends.length - 1) * 1000) / span) }),
    ...msFields(s),
    ...(failed !== undefined && { unavailable: failed }),
  };
}

/**
 * A probe the idle pings make needless, said so; undefined when it must run. Open model: calls at the rate could not
 * queue (PROBE_UTILIZATION). Closed model with one worker: one call in flight at a time, back to back, is what the
 * idle pings did.
 */
export function probeNeedless(offered: OfferedLoad, idle: CalibrationSample): ProbeSample | undefined {
  if (idle.p95Ms === undefined || idle.timedOut > 0) return undefined;
  const none = { calls: 0, timedOut: 0, durationMs: 0 };
  if ('concurrency' in offered) {
    if (offered.concurrency > 1) return undefined;
    const skipped = 'not needed: one call in flight at a time, back to back, as the idle pings were sent';
    return { model: 'closed', concurrency: 1, ...none, skipped };
  }
  const { intendedRate } = offered;
  const utilization = (intendedRate * idle.p95Ms) / 1000;
  if (utilization >= PROBE_UTILIZATION) return undefined;
  const skipped = `not needed: ${round1(intendedRate)}/s x the idle p95 of ${idle.p95Ms} ms keeps the pair busy ${busyShareAtMost(utilization)} of the time at most, under ${PROBE_UTILIZATION * 100}%: calls at this rate cannot queue`;
  return { model: 'open', intendedRate: round1(intendedRate), ...none, skipped };
}

/**
 * A share under PROBE_UTILIZATION as a percentage rounded up (it is said as an upper bound), with the fewest decimals
 * that keep it under the limit: 24.6 % reads "24.6%", never "25%" beside "under 25%".
 */
function busyShareAtMost(share: number): string {
  for (const decimals of [0, 1, 2]) {
    const scale = 10 ** decimals;
    // toFixed first: 0.07 x 100 is 7.000000000000001 in binary floating point, which must not round up to 8.
    const percent = Math.ceil(Number((share * 100 * scale).toFixed(6))) / scale;
    if (percent < PROBE_UTILIZATION * 100) return `${percent}%`;
  }
  return `just under ${PROBE_UTILIZATION * 100}%`;
}

/** One ping, its time counted from `fromMs` (now for an idle ping, its intended start in the probe). */
async function pingOnce(session: Session, timeoutMs: number, stop: PingSignals, fromMs: number): Promise<PingOutcome> {
  if (stop.signal.aborted) return { stopped: true };
  const { connection } = await session.get();
  const own = stop.take();
  try {
    await connection.client.ping({ timeout: timeoutMs, signal: own.signal });
    return { ms: epochMs() - fromMs };
  } catch (error) {
    if (stop.signal.aborted) return { stopped: true };
    // Only a ping that ran out of time says something about the machine; any other answer (a server without
    // ping) leaves nothing to calibrate with.
    return isTimeout(error) ? { ms: epochMs() - fromMs, timedOut: true } : { unavailable: describe(error) };
  } finally {
    own.release();
  }
}

/**
 * The first read-only tool of the workload's mix, with arguments drawn from the mix item's generators on a stream
 * of its own that logs nothing (the plan's draws and the decision log stay as they were).
 */
function readOnlyCall(
  profile: Profile,
  { traitsOf, seed }: ToolCallProbe,
): { tool: string; args: Record<string, unknown> } | undefined {
  const item = profile.workload.mix.find((m) => !traitsOf(m.tool).sideEffecting);
  if (!item) return undefined;
  const random = new RandomStream(seed, 'calibration');
  return {
    tool: item.tool,
    args: Object.fromEntries(Object.entries(item.args).map(([k, g]) => [k, generate(g, random, 0)])),
  };
}

/**
 * One warm-up call, then up to TOOL_CALLS within TOOL_BUDGET_MS, one at a time; an error is counted and kept,
 * never a reason to stop.
 */
async function timeToolCall(
  session: Session,
  { tool, args }: { tool: string; args: Record<string, unknown> },
  timeoutMs: number,
  stop: PingSignals,
): Promise<ToolCallSample | undefined> {
  const durations: number[] = [];
  let timedOut = 0;
  let errors = 0;
  let error: string | undefined;
  let measuredFrom = 0;
  for (let i = 0; i < 1 + TOOL_CALLS && !stop.signal.aborted; i++) {
    if (i === 1) measuredFrom = epochMs();
    else if (i > 1 && epochMs() - measuredFrom >= TOOL_BUDGET_MS) break;
    const { connection } = await session.get();
    const own = stop.take();
    const start = epochMs();
    let failure: string | undefined;
    let late = false;
    try {
      const result = (await connection.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: timeoutMs,
        signal: own.signal,
      })) as { isError?: boolean; content?: { type: string; text?: string }[] };
      if (result.isError) failure = result.content?.find((c) => c.type === 'text')?.text ?? 'isError';
    } catch (caught) {
      if (stop.signal.aborted) break;
      late = isTimeout(caught);
      failure = caught instanceof Error ? caught.message : String(caught);
    } finally {
      own.release();
    }
    if (i === 0) continue;
    durations.push(epochMs() - start);
    if (late) timedOut++;
    else if (failure !== undefined) {
      errors++;
      error ??= failure.slice(0, 120);
    }
  }
  if (durations.length === 0) return undefined;
  const s = latencySummary(durations);
  return {
    tool,
    calls: durations.length,
    timedOut,
    errors,
    ...(error !== undefined && { error }),
    ...msFields(s),
  };
}

interface PingSignals {
  signal: AbortSignal;
  take(): { signal: AbortSignal; release(): void };
  close(): void;
}

/**
 * A signal of its own per ping (the SDK leaves a listener on the signal it is given, see request-signal.ts), all
 * aborted by one listener on the run's signal: a probe's pings in flight add no listener each.
 */
function pingSignals(signal: AbortSignal): PingSignals {
  const live = new Set<AbortController>();
  const abortAll = () => {
    for (const c of live) c.abort();
  };
  signal.addEventListener('abort', abortAll, { once: true });
  return {
    signal,
    take() {
      const own = new AbortController();
      if (signal.aborted) own.abort();
      live.add(own);
      return { signal: own.signal, release: () => live.delete(own) };
    },
    close: () => signal.removeEventListener('abort', abortAll),
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function isTimeout(error: unknown): boolean {
  return /timed? ?out/i.test(error instanceof Error ? error.message : String(error));
}

function describe(error: unknown): string {
  return `the server did not answer ping (${(error instanceof Error ? error.message : String(error)).slice(0, 80)})`;
}
