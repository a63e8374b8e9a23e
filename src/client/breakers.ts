// One circuit breaker per tool, shared by every op of a run: after `consecutiveFailures` DEPENDENCY failures in a
// row the tool's calls fail fast until `halfOpenAfterMs` has passed, then one probe decides (cockatiel).
import { type CircuitBreakerPolicy, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import { epochMs } from '../core/clock.ts';
import type { BreakerEvent } from '../core/history.ts';
import { AttemptFailed } from './policies/failure.ts';

export interface BreakerOptions {
  consecutiveFailures: number;
  halfOpenAfterMs: number;
}

const STATES: Partial<Record<CircuitState, BreakerEvent['state']>> = {
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Closed]: 'closed',
};

export class Breakers {
  private readonly byKey = new Map<string, CircuitBreakerPolicy>();

  constructor(
    private readonly options: BreakerOptions,
    private readonly onEvent: (event: BreakerEvent) => void,
  ) {}

  get(key: string): CircuitBreakerPolicy {
    let breaker = this.byKey.get(key);
    if (!breaker) {
      // Only the dependency's failures say it is down; a bad argument or an expired token does not.
      breaker = circuitBreaker(
        handleWhen((e) => e instanceof AttemptFailed && e.classified.category === 'DEPENDENCY'),
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
