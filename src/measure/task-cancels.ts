// Cancels racing a task's completion (the edge's cancel-race fault): how many the edge sent, how many the server
// let win (the task cancelled) or refused (the work had claimed the task), and the detector of the one-outcome
// rule: tasks the server called cancelled that charged all the same, found by matching the ledger's effects to
// the attempt that created the task (an effect carries its op's trace id and attempt). Counts are absent when no
// cancel was sent; the detector is n/a when no task ended cancelled (nothing to contradict) or an effect of such
// an op carries no attempt (it cannot be matched to its task).
import type { AttemptRecord } from '../core/history.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';

export interface TaskCancelMetrics {
  taskCancelsSent: number;
  taskCancelsWon: number;
  taskCancelsRefused: number;
  /** Tasks that ended cancelled (the cancel's answer or a poll said so) and whose attempt charged anyway. */
  tasksCancelledAndCharged: number | null;
  /** Why tasksCancelledAndCharged is null. */
  tasksCancelledAndChargedNa?: string;
}

export class TaskCancelCounter implements Accumulator<Partial<TaskCancelMetrics>> {
  private sent = 0;
  private won = 0;
  private refused = 0;
  /** Attempts whose task ended cancelled, by op id: the attempt numbers. */
  private readonly cancelled = new Map<string, number[]>();

  attempt(a: AttemptRecord): void {
    const task = a.task;
    if (!task) return;
    if (task.cancel !== undefined) this.sent++;
    if (task.cancel === 'won') this.won++;
    if (task.cancel === 'refused') this.refused++;
    if (task.cancel === 'won' || task.status === 'cancelled') {
      this.cancelled.set(a.opId, [...(this.cancelled.get(a.opId) ?? []), a.attempt]);
    }
  }

  result(run: RunFrame): Partial<TaskCancelMetrics> {
    const detector = this.charged(run);
    return {
      ...(this.sent > 0 && {
        taskCancelsSent: this.sent,
        taskCancelsWon: this.won,
        taskCancelsRefused: this.refused,
      }),
      ...(detector !== undefined && detector),
    };
  }

  private charged(
    run: RunFrame,
  ): Pick<TaskCancelMetrics, 'tasksCancelledAndCharged' | 'tasksCancelledAndChargedNa'> | undefined {
    if (this.cancelled.size === 0) return this.sent > 0 ? na('no task ended cancelled') : undefined;
    if (run.effectsObservable === false) return na('the target gives no way to see effects');
    const hit = new Set<string>();
    for (const effect of run.effects) {
      const attempts = effect.traceId === undefined ? undefined : this.cancelled.get(effect.traceId);
      if (!attempts) continue;
      if (effect.attempt === undefined) return na(`the effects of op ${effect.traceId} carry no attempt`);
      if (attempts.includes(effect.attempt)) hit.add(`${effect.traceId}#${effect.attempt}`);
    }
    return { tasksCancelledAndCharged: hit.size };
  }
}

function na(why: string) {
  return { tasksCancelledAndCharged: null, tasksCancelledAndChargedNa: why };
}
