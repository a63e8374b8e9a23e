// The reference server's task store: one outcome per task, however a cancel and the work's commit interleave.
import { describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/server/tasks/task-store.ts';

/** A task whose work waits for `release`, then commits and reports whether it could (its "effect"). */
function gatedTask(store: TaskStore) {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const effects: number[] = [];
  let settled!: () => void;
  const done = new Promise<void>((r) => {
    settled = r;
  });
  const view = store.start(async (handle) => {
    await gate;
    const committed = handle.commit();
    if (committed) effects.push(1);
    settled();
    return { result: { content: [], committed }, failed: false };
  });
  return { view, release, effects, done };
}

describe('TaskStore', () => {
  it('a task works, then completes with its result', async () => {
    const store = new TaskStore();
    const t = gatedTask(store);
    expect(t.view.status).toBe('working');
    expect(store.get(t.view.taskId)?.task.status).toBe('working');
    t.release();
    await t.done;
    await Promise.resolve();
    const after = store.get(t.view.taskId);
    expect(after?.task.status).toBe('completed');
    expect(after?.result).toEqual({ content: [], committed: true });
    expect(t.effects).toEqual([1]);
  });

  it('a cancel before the commit wins: cancelled, and the work cannot commit', async () => {
    const store = new TaskStore();
    const t = gatedTask(store);
    const cancel = store.cancel(t.view.taskId);
    expect(cancel).toMatchObject({ refused: false, task: { status: 'cancelled' } });
    t.release();
    await t.done;
    await Promise.resolve();
    expect(t.effects).toEqual([]);
    // The work's late return does not overwrite the outcome.
    expect(store.get(t.view.taskId)?.task.status).toBe('cancelled');
    expect(store.get(t.view.taskId)?.result).toBeUndefined();
  });

  it('a cancel after the commit is refused: the task completes with its one effect', async () => {
    const store = new TaskStore();
    let commit!: () => boolean;
    let finish!: () => void;
    const view = store.start(
      (handle) =>
        new Promise((resolve) => {
          commit = handle.commit;
          finish = () => resolve({ result: { ok: true }, failed: false });
        }),
    );
    expect(commit()).toBe(true);
    expect(store.cancel(view.taskId)).toMatchObject({ refused: true, task: { status: 'working' } });
    finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(store.get(view.taskId)?.task.status).toBe('completed');
    expect(store.cancel(view.taskId)).toMatchObject({ refused: true, task: { status: 'completed' } });
  });

  it('an id the store never had is unknown (as after a restart)', () => {
    const store = new TaskStore();
    expect(store.get('task_nope')).toBeUndefined();
    expect(store.cancel('task_nope')).toBeUndefined();
  });
});
