// Circuit breaker, one per tool and shared by every op of a run: after `consecutiveFailures` DEPENDENCY failures
// in a row the tool's calls fail fast until `halfOpenAfterMs` has passed, then one probe decides (cockatiel's
// ConsecutiveBreaker). A refused call ends the op as DEPENDENCY.CIRCUIT_OPEN.
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker as cockatielBreaker,
  handleWhen,
  IsolatedCircuitError,
} from 'cockatiel';
import { epochMs } from '../../core/clock.ts';
import type { BreakerEvent } from '../../core/history.ts';
import { AttemptFailed, CircuitOpen } from '../failure.ts';
import { type OpRun, policyUnit, type Unit } from './unit.ts';

export interface BreakerOptions {
  consecutiveFailures: number;
  halfOpenAfterMs: number;
}

const STATES: Partial<Record<CircuitState, BreakerEvent['state']>> = {
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Closed]: 'closed',
};

/** The run's breakers by tool; every state change is reported. */
export class Breakers {
  private readonly byKey = new Map<string, CircuitBreakerPolicy>();

  constructor(
    private readonly options: BreakerOptions,
    private readonly onEvent: (event: BreakerEvent) => void,
  ) {}

  get(key: string): CircuitBreakerPolicy {
    let breaker = this.byKey.get(key);
    if (!breaker) {
      // Only failures of what is behind the tool (its dependencies, the link to the server, the server's endpoint)
      // say it is down; a bad argument or an expired token does not.
      breaker = cockatielBreaker(
        handleWhen((e) => {
          const category = e instanceof AttemptFailed ? e.classified.category : undefined;
          return category === 'DEPENDENCY' || category === 'LINK' || category === 'EDGE';
        }),
        {
          halfOpenAfter: this.options.halfOpenAfterMs,
          breaker: new ConsecutiveBreaker(this.options.consecutiveFailures),
        },
      );
      breaker.onStateChange((state) => {
        const named = STATES[state];
        if (named) this.onEvent({ key, atMs: epochMs(), state: named });
      });
      this.byKey.set(key, breaker);
    }
    return breaker;
  }
}

/** Each try passes the op's tool's breaker. */
export function circuitBreaker(op: OpRun, breakers: Breakers): Unit {
  const guarded = policyUnit(breakers.get(op.opTool));
  return (next) => {
    const inner = guarded(next);
    return async (context) => {
      try {
        return await inner(context);
      } catch (error) {
        if (!(error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError)) throw error;
        op.tally.record({ type: 'circuit-open' });
        throw new CircuitOpen();
      }
    };
  };
}
