// Op outcomes and the attempt cost of each op.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import type { Accumulator } from './accumulator.ts';

export interface Outcomes {
  ops: number;
  opsOk: number;
  opsFail: number;
  opsInfo: number;
  attempts: number;
  attemptsPerOp: { mean: number | null; max: number | null };
  errorRate: number | null;
}

/** Op outcomes, attempts per op and throughput, as the run goes: an op's attempts are counted until the op ends, then only summed. */
export class OutcomeCounter implements Accumulator<Outcomes & { throughputOpsPerSec: number }> {
  private ops = 0;
  private opsOk = 0;
  private opsFail = 0;
  private opsInfo = 0;
  private attempts = 0;
  private sum = 0;
  private max = 0;
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  /** Attempts of ops not ended yet. */
  private readonly open = new Map<string, number>();

  attempt(a: AttemptRecord): void {
    this.attempts++;
    this.open.set(a.opId, (this.open.get(a.opId) ?? 0) + 1);
  }

  op(o: OpRecord): void {
    this.ops++;
    if (o.outcome === 'ok') this.opsOk++;
    else if (o.outcome === 'fail') this.opsFail++;
    else this.opsInfo++;
    // Attempt records are the source of truth; fall back to the op's own count when a run recorded none for it.
    const n = Math.max(this.open.get(o.opId) ?? 0, o.attempts);
    this.open.delete(o.opId);
    this.sum += n;
    if (n > this.max) this.max = n;
    this.first = Math.min(this.first, o.startMs);
    this.last = Math.max(this.last, o.endMs);
  }

  result(): Outcomes & { throughputOpsPerSec: number } {
    const { ops, opsOk, opsFail, opsInfo } = this;
    const seconds = (this.last - this.first) / 1000;
    return {
      ops,
      opsOk,
      opsFail,
      opsInfo,
      attempts: this.attempts,
      attemptsPerOp: { mean: ops === 0 ? null : this.sum / ops, max: ops === 0 ? null : this.max },
      errorRate: ops === 0 ? null : (opsFail + opsInfo) / ops,
      // Ops per second while the workload ran: from the first op's start to the last op's end.
      throughputOpsPerSec: ops > 0 && seconds > 0 ? Math.round((ops / seconds) * 100) / 100 : 0,
    };
  }
}
