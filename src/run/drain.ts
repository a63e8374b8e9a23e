// The end of a run: wait until the server is quiet before the ledger is read, so an effect that lands after the
// client stopped looking (a tool that ignores cancellation and commits seconds later) is still counted. Quiet
// means no tool handler in flight (cancelled ones and ones whose client went away included) and nothing
// happening (no effect, no handler starting or ending) for `settleMs`. Past `limitMs` the run did not settle.

import type { Quiescence } from '../control/ops/quiescence.ts';
import { epochMs } from '../core/clock.ts';
import { sleep } from '../core/sleep.ts';
import type { ServerUnderTest } from '../under-test/target.ts';

export interface DrainOptions {
  settleMs: number;
  limitMs: number;
}

export interface DrainResult {
  /** From the start of the drain until the server was quiet (or the limit passed), ms. */
  drainMs: number;
  /** Why the server did not settle (the limit passed first, or the run was stopped); undefined when it did. */
  unsettled?: string;
  /** False when the target cannot say whether it is quiet (no control channel): nothing was awaited. */
  observable: boolean;
}

/** How often the server is asked while handlers are still running. */
const POLL_MS = 25;

export async function drain(
  server: Pick<ServerUnderTest, 'quiescence'>,
  options: DrainOptions,
  signal?: AbortSignal,
): Promise<DrainResult> {
  const started = epochMs();
  const elapsed = () => Math.round(epochMs() - started);
  let last: Quiescence | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await server.quiescence();
      lastError = undefined;
      if (!last) return { drainMs: elapsed(), observable: false };
      if (last.inFlight === 0 && last.idleMs >= options.settleMs) return { drainMs: elapsed(), observable: true };
    } catch (error) {
      lastError = error; // a server between processes (a crash's restart): ask again
    }
    const left = options.limitMs - (epochMs() - started);
    if (left <= 0) return { drainMs: elapsed(), unsettled: why(options.limitMs, last, lastError), observable: true };
    // Idle but not long enough: wait out the rest of the settle period in one sleep.
    const wait = last && last.inFlight === 0 ? options.settleMs - last.idleMs : POLL_MS;
    if (!(await sleep(Math.min(Math.max(wait, 1), left), signal))) {
      return { drainMs: elapsed(), unsettled: 'the run was stopped during the drain', observable: true };
    }
  }
}

function why(limitMs: number, last: Quiescence | undefined, error: unknown): string {
  const prefix = `the server did not settle within the drain limit of ${limitMs} ms`;
  if (error !== undefined) return `${prefix}: its quiescence could not be read (${String(error).slice(0, 200)})`;
  if (last && last.inFlight > 0) return `${prefix}: ${last.inFlight} tool handler(s) still running`;
  return `${prefix}: effects or handlers still starting within the last ${Math.round(last?.idleMs ?? 0)} ms`;
}
