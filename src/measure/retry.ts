// Retry success: of the ops that hit at least one failed attempt, how many still ended ok. Overall, per fault
// window and per fault kind.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';
import { OpSpans } from './op-spans.ts';
import type { KindRetryRate, RetryRate, WindowRetryRate } from './types.ts';
import { overlaps } from './windows.ts';

export interface RetryResult extends RetryRate {
  byWindow: WindowRetryRate[];
  byKind: KindRetryRate[];
}

const RETRIED = 1;
const OK = 2;

/**
 * Counted as the run goes; each ended op keeps its span and two bits, since the fault windows it may overlap are
 * known only at the end. Failed attempts are remembered only for ops still open.
 */
export class RetryCounter implements Accumulator<RetryResult> {
  private readonly spans = new OpSpans();
  private readonly failedOpen = new Set<string>();

  attempt(a: AttemptRecord): void {
    if (!a.ok) this.failedOpen.add(a.opId);
  }

  op(o: OpRecord): void {
    // An op the circuit breaker failed fast has no failed attempt, but it failed all the same.
    const failedAttempt = this.failedOpen.delete(o.opId);
    const retried = o.failedAttempts > 0 || failedAttempt || !!o.circuitOpen;
    this.spans.push(o.startMs, o.endMs, (retried ? RETRIED : 0) | (o.outcome === 'ok' ? OK : 0));
  }

  result(run: RunFrame): RetryResult {
    const { spans } = this;
    const all = Array.from({ length: spans.length }, (_, i) => i);
    const inWindows = (windows: RunFrame['faults']) =>
      all.filter((i) => windows.some((w) => overlaps(spans.start[i], spans.end[i], w, run)));
    const byWindow = run.faults.map((w) => {
      const ops = inWindows([w]);
      return { fault: w.id, kind: w.kind, ops: ops.length, ...this.rate(ops) };
    });
    // A kind's ops are the union over its windows, so an op spanning two windows of one kind counts once.
    const kinds = [...new Set(run.faults.map((w) => w.kind))];
    const byKind = kinds.map((kind) => {
      const ops = inWindows(run.faults.filter((w) => w.kind === kind));
      return { kind, ops: ops.length, ...this.rate(ops) };
    });
    return { ...this.rate(all), byWindow, byKind };
  }

  private rate(rows: number[]): RetryRate {
    let retriedOps = 0;
    let recoveredOps = 0;
    for (const i of rows) {
      const f = this.spans.flags[i];
      if (!(f & RETRIED)) continue;
      retriedOps++;
      if (f & OK) recoveredOps++;
    }
    return { retriedOps, recoveredOps, rate: retriedOps === 0 ? null : recoveredOps / retriedOps };
  }
}
