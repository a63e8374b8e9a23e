// The start-up calibration: before the workload and before any fault window, a few MCP `ping` requests through the
// very path the ops take (session, fetch chain, Toxiproxy proxy, the server's transport and JSON-RPC layer). A
// ping touches no tool, dependency, ledger or seeded decision, so it cannot change what the profile measures; how
// long it takes on this machine now is what measure/calibration.ts judges the profile's timing against.
import type { Session } from '../client/session.ts';
import { epochMs } from '../core/clock.ts';
import { assessCalibration, type Calibration, type CalibrationSample } from '../measure/calibration.ts';
import { latencySummary } from '../measure/latency.ts';
import type { Profile } from '../profile/schema.ts';

/** Pings whose time is not kept (the first request of a connection pays for JIT and connection set-up). */
const WARM_UP = 2;
/** Pings measured: enough for a p95 that is not just the maximum, few enough to cost well under a second. */
const CALIBRATION_CALLS = 20;

/** Calibrates the pair and judges the result against the profile's timing. */
export async function calibrateFor(profile: Profile, session: Session, signal: AbortSignal): Promise<Calibration> {
  const sample = await calibrate(session, profile.client.attemptTimeoutMs, signal);
  const windows = profile.faults.flatMap((f) => (f.stop === undefined ? [] : [f.stop - f.start]));
  return assessCalibration(sample, {
    attemptTimeoutMs: profile.client.attemptTimeoutMs,
    ...(windows.length > 0 && { shortestWindowMs: Math.min(...windows) }),
  });
}

async function calibrate(session: Session, timeoutMs: number, signal: AbortSignal): Promise<CalibrationSample> {
  const durations: number[] = [];
  let timedOut = 0;
  for (let i = 0; i < WARM_UP + CALIBRATION_CALLS && !signal.aborted; i++) {
    const { connection } = await session.get();
    const start = epochMs();
    // A signal of its own per ping: the SDK leaves a listener on the signal it is given (see request-signal.ts).
    const own = new AbortController();
    const abort = () => own.abort();
    signal.addEventListener('abort', abort, { once: true });
    try {
      await connection.client.ping({ timeout: timeoutMs, signal: own.signal });
    } catch (error) {
      if (signal.aborted) break;
      // Only a ping that ran out of time says something about the machine; any other answer (a server without
      // ping) leaves nothing to calibrate with.
      if (!isTimeout(error)) return { calls: 0, timedOut: 0, unavailable: describe(error) };
      timedOut++;
    } finally {
      signal.removeEventListener('abort', abort);
    }
    if (i >= WARM_UP) durations.push(epochMs() - start);
  }
  const s = latencySummary(durations);
  return { calls: durations.length, timedOut, p50Ms: s.p50, p95Ms: s.p95, maxMs: s.max };
}

function isTimeout(error: unknown): boolean {
  return /timed? ?out/i.test(error instanceof Error ? error.message : String(error));
}

function describe(error: unknown): string {
  return `the server did not answer ping (${(error instanceof Error ? error.message : String(error)).slice(0, 80)})`;
}
