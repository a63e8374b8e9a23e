// The reference server's tasks (2026-07-28 Tasks extension): a task-only tool answers tools/call with a task at
// once and runs in the background; tasks/get reads its status (and, once completed, its result), tasks/cancel
// stops it. Exactly one outcome per task: the work claims the task (commit) before its effect, and a cancel
// after the claim is refused, so a cancel racing completion is either "cancelled, no effect" or "completed, one
// effect". The store lives in the server process's memory: a restart forgets every task (the ledger's effects
// and the idempotency store's keys are what survives), and tasks/get then answers "unknown task".
import { randomUUID } from 'node:crypto';

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** A task as tasks/get and tasks/cancel put it on the wire. */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  /** Milliseconds the client should wait between polls. */
  pollInterval: number;
  statusMessage?: string;
}

/** What a task's work may do: see whether it was cancelled, and claim the task before its effect. */
export interface TaskHandle {
  signal: AbortSignal;
  /** True once: the task is now committed and can no longer be cancelled. False when it was cancelled first. */
  commit(): boolean;
}

interface Entry {
  view: TaskView;
  committed: boolean;
  abort: AbortController;
  result?: unknown;
}

const POLL_INTERVAL_MS = 50;

export class TaskStore {
  private readonly tasks = new Map<string, Entry>();

  /** Starts `work` as a task; its result (or its thrown error, as failed) is kept for tasks/get. */
  start(work: (handle: TaskHandle) => Promise<{ result: unknown; failed: boolean }>): TaskView {
    const now = new Date().toISOString();
    const entry: Entry = {
      view: {
        taskId: `task_${randomUUID()}`,
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        pollInterval: POLL_INTERVAL_MS,
      },
      committed: false,
      abort: new AbortController(),
    };
    this.tasks.set(entry.view.taskId, entry);
    const handle: TaskHandle = {
      signal: entry.abort.signal,
      commit: () => {
        if (entry.view.status !== 'working') return false;
        entry.committed = true;
        return true;
      },
    };
    void work(handle).then(
      ({ result, failed }) => this.settle(entry, failed ? 'failed' : 'completed', result),
      (error: unknown) => this.settle(entry, 'failed', undefined, String(error)),
    );
    return { ...entry.view };
  }

  /** The task's status and, once completed or failed, its result; undefined for a task this store never had. */
  get(taskId: string): { task: TaskView; result?: unknown } | undefined {
    const entry = this.tasks.get(taskId);
    if (!entry) return undefined;
    return { task: { ...entry.view }, ...(entry.result !== undefined && { result: entry.result }) };
  }

  /**
   * Cancels a working task that has not committed: its status, now cancelled. A committed or finished task is not
   * cancelled (`refused`, with its status); undefined for an unknown task.
   */
  cancel(taskId: string): { task: TaskView; refused: boolean } | undefined {
    const entry = this.tasks.get(taskId);
    if (!entry) return undefined;
    if (entry.view.status !== 'working' || entry.committed) return { task: { ...entry.view }, refused: true };
    this.update(entry, 'cancelled', 'Cancelled by the client; nothing was charged.');
    entry.abort.abort();
    return { task: { ...entry.view }, refused: false };
  }

  private settle(entry: Entry, status: 'completed' | 'failed', result: unknown, message?: string): void {
    // A cancelled task keeps its outcome: whatever its work returns after the cancel is dropped.
    if (entry.view.status !== 'working') return;
    entry.result = result;
    this.update(entry, status, message);
  }

  private update(entry: Entry, status: TaskStatus, message?: string): void {
    entry.view = {
      ...entry.view,
      status,
      lastUpdatedAt: new Date().toISOString(),
      ...(message !== undefined && { statusMessage: message }),
    };
  }
}

// One store per server process (the runtime), whichever McpServer instance (one per request) serves the call.
const stores = new WeakMap<object, TaskStore>();

/** The task store of a server runtime. */
export function tasksOf(runtime: object): TaskStore {
  let store = stores.get(runtime);
  if (!store) {
    store = new TaskStore();
    stores.set(runtime, store);
  }
  return store;
}
