// One call's tally: the units report what happened as events and the tally counts them into the client's part
// of the op record. Units read back only what they act on: whether the op may have taken effect, and when the
// next try may start.
import { epochMs } from '../core/clock.ts';
import { toolErrorOf } from '../core/taxonomy.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import { opOutcome } from './outcome.ts';
import type { CallOutcome, LogicalCall } from './policy.ts';
import { type PriorEnd, unsafeReplay } from './replay.ts';

export type LookupStatus = 'found' | 'absent' | 'unknown';

export type OpEvent =
  /** An attempt ended. `tookNoEffect`: the client knows this failed attempt left nothing behind. */
  | { type: 'attempt'; outcome: AttemptOutcome; tookNoEffect?: boolean }
  /** The retry unit tries again after `delayMs`. */
  | { type: 'retry'; delayMs: number }
  /** A status lookup asked whether the op's idempotency key took effect. */
  | { type: 'lookup'; status: LookupStatus }
  | { type: 'credential-refresh' }
  | { type: 'circuit-open' };

export class OpTally {
  private attempts = 0;
  private failedAttempts = 0;
  private lookups = 0;
  private lookupsFound = 0;
  private authRefreshes = 0;
  private circuitOpen = false;
  private last?: AttemptOutcome;
  /** How the last attempt ended, as a retry after it would see it (a lookup may settle an unknown). */
  private lastEnd?: PriorEnd;
  private lastArgs?: string;
  private firstArgs?: string;
  private retries = 0;
  private replaysAfterUnknown = 0;
  private unsafeReplays = 0;
  private identicalCalls = 0;
  /** Some attempt may have taken effect and nothing has shown otherwise. */
  uncertain = false;
  /** When the retry unit starts the next try (0 when it announced no wait). */
  nextTryAtMs = 0;

  constructor(private readonly call: LogicalCall) {}

  /** Attempts made so far in this call. */
  get attemptsMade(): number {
    return this.attempts;
  }

  record(event: OpEvent): void {
    switch (event.type) {
      case 'attempt': {
        this.countReplay(event.outcome);
        this.attempts++;
        this.last = event.outcome;
        const c = event.outcome.classified;
        const unknown = !c.ok && c.uncertain && !event.tookNoEffect;
        this.lastEnd = c.ok ? 'ok' : unknown ? 'unknown' : 'fail';
        if (c.ok) return;
        this.failedAttempts++;
        if (unknown) this.uncertain = true;
        return;
      }
      case 'retry':
        this.nextTryAtMs = epochMs() + event.delayMs;
        return;
      case 'lookup':
        this.lookups++;
        if (event.status === 'found') this.lookupsFound++;
        // The key never took effect: re-executing is safe.
        if (event.status === 'absent') {
          this.uncertain = false;
          if (this.lastEnd === 'unknown') this.lastEnd = 'fail';
        }
        return;
      case 'credential-refresh':
        this.authRefreshes++;
        return;
      case 'circuit-open':
        this.circuitOpen = true;
        return;
    }
  }

  /** An attempt after the first is a replay: counted by how the one before ended, and whether it was safe. */
  private countReplay(outcome: AttemptOutcome): void {
    const args = JSON.stringify(outcome.record.args);
    this.firstArgs ??= args;
    if (args === this.firstArgs) this.identicalCalls++;
    const prior = this.lastEnd;
    const sameArgs = args === this.lastArgs;
    this.lastArgs = args;
    if (prior === undefined) return;
    const unsafe = unsafeReplay(prior, this.call, sameArgs);
    outcome.record.replay = { after: prior, ...(unsafe && { unsafe }) };
    this.retries++;
    if (prior === 'unknown') this.replaysAfterUnknown++;
    if (unsafe) this.unsafeReplays++;
  }

  /** What the call came to; `ok` when its last try succeeded (an attempt, or a lookup that found the effect). */
  outcome(ok: boolean): CallOutcome {
    const last = this.last;
    const failure = ok ? undefined : this.circuitOpen ? CIRCUIT_OPEN : last?.classified;
    const fieldErrors = !ok && last?.result ? toolErrorOf(last.result)?.fieldErrors : undefined;
    return {
      fields: {
        tool: this.call.tool,
        sideEffecting: this.call.sideEffecting,
        outcome: opOutcome(ok, this.call.sideEffecting, this.uncertain),
        attempts: this.attempts,
        failedAttempts: this.failedAttempts,
        category: failure?.category,
        errorCode: failure?.errorCode,
        lookups: this.lookups,
        visible: last?.visible ?? '',
        ...(this.lookupsFound > 0 && { lookupsFound: this.lookupsFound }),
        ...(this.authRefreshes > 0 && { authRefreshes: this.authRefreshes }),
        ...(this.circuitOpen && { circuitOpen: true }),
        ...(this.retries > 0 && { retries: this.retries }),
        ...(this.replaysAfterUnknown > 0 && { replaysAfterUnknown: this.replaysAfterUnknown }),
        ...(this.unsafeReplays > 0 && { unsafeReplays: this.unsafeReplays }),
        ...(this.call.hints && { hints: this.call.hints, identicalCalls: this.identicalCalls }),
      },
      ...(fieldErrors && { fieldErrors }),
    };
  }
}

const CIRCUIT_OPEN = { category: 'DEPENDENCY', errorCode: 'DEPENDENCY.CIRCUIT_OPEN' } as const;
