// Tasks (2026-07-28 Tasks extension): how many tasks the client created, how many it saw completed, how many it
// abandoned and created again. A client that resumes a failed poll by the task's id creates one task per op; one
// that calls the tool again creates another, and the first one still runs to its effect (the ledger's duplicate
// effects say whether it charged twice). Every count is absent when the run created no task.
import type { AttemptRecord, OpRecord } from '../core/history.ts';
import type { Accumulator } from './accumulator.ts';

export interface TaskMetrics {
  tasksCreated: number;
  tasksCompleted: number;
  /** tasksCompleted / tasksCreated. */
  taskCompletionRate: number;
  /** Ops that created more than one task (tasks created again instead of resumed). */
  tasksRecreated: number;
  /** Failed tasks/get polls resumed by the task's id. */
  pollsResumed: number;
  /** Tasks the server forgot (a poll answered unknown task) that the client created again with the same key. */
  tasksForgotten: number;
}

export class TaskCounter implements Accumulator<Partial<TaskMetrics>> {
  private created = 0;
  private completed = 0;
  private resumed = 0;
  private recreated = 0;
  private forgotten = 0;
  /** Tasks created by each op not yet ended. */
  private readonly byOp = new Map<string, number>();

  attempt(a: AttemptRecord): void {
    if (!a.task) return;
    this.created++;
    if (a.task.status === 'completed') this.completed++;
    this.resumed += a.task.resumedPolls;
    this.forgotten += a.task.forgotten ?? 0;
    this.byOp.set(a.opId, (this.byOp.get(a.opId) ?? 0) + 1);
  }

  op(o: OpRecord): void {
    if ((this.byOp.get(o.opId) ?? 0) > 1) this.recreated++;
    this.byOp.delete(o.opId);
  }

  result(): Partial<TaskMetrics> {
    if (this.created === 0) return {};
    for (const n of this.byOp.values()) if (n > 1) this.recreated++;
    return {
      tasksCreated: this.created,
      tasksCompleted: this.completed,
      taskCompletionRate: Math.round((this.completed / this.created) * 1000) / 1000,
      tasksRecreated: this.recreated,
      pollsResumed: this.resumed,
      tasksForgotten: this.forgotten,
    };
  }
}
