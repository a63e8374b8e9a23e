// A task the server reported cancelled (a tasks/get answered status `cancelled`). Under the Tasks extension a
// cancelled task is terminal with no result, and the reference server's store lets a cancel win only before the
// work claims the task (server/tasks/task-store.ts), so nothing was charged: the call failed for certain. Whether
// the server told the truth is the ledger's to check (tasks_cancelled_and_charged, ghost_effects).
export class TaskCancelledError extends Error {
  constructor(
    readonly taskId: string,
    statusMessage: string | undefined,
  ) {
    super(`Task ${taskId} ended cancelled: ${statusMessage ?? 'no result'}`);
    this.name = 'TaskCancelledError';
  }
}
