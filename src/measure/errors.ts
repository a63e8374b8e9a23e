// Error distribution over failed attempts, by category and by stable error code. An op the circuit breaker failed
// fast made no attempt for that refusal; it counts once under the breaker's code so it does not vanish.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import type { Accumulator } from './accumulator.ts';

export interface ErrorCounts {
  errorsByCategory: Record<string, number>;
  errorsByCode: Record<string, number>;
}

export const CIRCUIT_OPEN = 'DEPENDENCY.CIRCUIT_OPEN';

/** Failed attempts without a category or code count as UNKNOWN, so totals still add up. */
export class ErrorCounter implements Accumulator<ErrorCounts> {
  private readonly errorsByCategory: Record<string, number> = {};
  private readonly errorsByCode: Record<string, number> = {};

  attempt(a: AttemptRecord): void {
    if (!a.ok) this.count(a.category ?? 'UNKNOWN', a.errorCode ?? 'UNKNOWN');
  }

  op(o: OpRecord): void {
    if (o.circuitOpen) this.count('DEPENDENCY', CIRCUIT_OPEN);
  }

  result(): ErrorCounts {
    return { errorsByCategory: sortKeys(this.errorsByCategory), errorsByCode: sortKeys(this.errorsByCode) };
  }

  private count(category: string, code: string): void {
    this.errorsByCategory[category] = (this.errorsByCategory[category] ?? 0) + 1;
    this.errorsByCode[code] = (this.errorsByCode[code] ?? 0) + 1;
  }
}

// Stable key order keeps report.json diffable between runs.
function sortKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
