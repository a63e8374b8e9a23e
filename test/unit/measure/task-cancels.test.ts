// Cancels racing completion: the counts, and the detector (a task the server called cancelled that charged all the
// same) with its negative control: the same race against work that charges without claiming the task first.
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../src/client/classify.ts';
import { opOutcome } from '../../../src/client/outcome.ts';
import { TaskCancelledError } from '../../../src/client/task-cancelled.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { type TaskHandle, TaskStore } from '../../../src/server/tasks/task-store.ts';
import { attempt, effect, fed, history, op } from './fixtures.ts';

/** A gate the test opens. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

/**
 * One task raced: its work reaches the charge (claiming the task first when `claims`, as settle_batch does), a
 * cancel lands while the charge is under way (or, `cancelBeforeClaim`, before the work claims), then the charge
 * completes. What the client and the ledger saw.
 */
async function race(claims: boolean, opId: string, cancelBeforeClaim = false) {
  const store = new TaskStore();
  const atCharge = gate();
  const charge = gate();
  const effects: Effect[] = [];
  const view = store.start(async (handle: TaskHandle) => {
    if (cancelBeforeClaim) {
      atCharge.open();
      await charge.opened;
    }
    if (claims && !handle.commit()) return { result: undefined, failed: true };
    if (!cancelBeforeClaim) {
      atCharge.open();
      await charge.opened;
    }
    effects.push(effect(opId, { attempt: 1 }));
    return { result: { content: [] }, failed: false };
  });
  await atCharge.opened;
  const cancel = store.cancel(view.taskId)?.refused ? 'refused' : 'won';
  charge.open();
  await new Promise((r) => setTimeout(r, 0));
  const status = store.get(view.taskId)?.task.status ?? 'unknown';
  return {
    attempt: attempt(opId, 1, 0, 400, status === 'completed', { task: { status, resumedPolls: 0, cancel } }),
    effects,
  };
}

const metricsOf = (attempts: ReturnType<typeof attempt>[], effects: Effect[]) =>
  fed(history({ attempts, ops: attempts.map((a) => op(a.opId, 0, 500, a.ok ? 'ok' : 'fail')), effects })).taskCancels;

describe('task cancels racing completion', () => {
  it('the reference store refuses a cancel after the claim: one outcome, the detector reads 0', async () => {
    const raced = await race(true, 'op-1');
    expect(raced.attempt.task).toMatchObject({ status: 'completed', cancel: 'refused' });
    expect(metricsOf([raced.attempt], raced.effects)).toMatchObject({
      taskCancelsSent: 1,
      taskCancelsWon: 0,
      taskCancelsRefused: 1,
    });
  });

  it('negative control: work that charges without claiming lets the cancel win and charges anyway: the detector fires', async () => {
    const raced = await race(false, 'op-1');
    expect(raced.attempt.task).toMatchObject({ status: 'cancelled', cancel: 'won' });
    expect(raced.effects).toHaveLength(1);
    expect(metricsOf([raced.attempt], raced.effects)).toMatchObject({
      taskCancelsSent: 1,
      taskCancelsWon: 1,
      tasksCancelledAndCharged: 1,
    });
  });

  it('the client fails a cancelled op for certain, so a charge the server denied is also a ghost in the ledger', async () => {
    // How the task client ends the attempt the store called cancelled: a certain failure, so the op ends `fail`.
    const said = classifyError(new TaskCancelledError('task_1', 'Cancelled by the client; nothing was charged.'));
    expect(said).toMatchObject({ errorCode: 'RESOURCE.TASK_CANCELLED', uncertain: false });
    const outcome = opOutcome(false, true, said.uncertain);
    expect(outcome).toBe('fail');
    const judge = (raced: Awaited<ReturnType<typeof race>>) =>
      computeMetrics(
        history({
          attempts: [raced.attempt],
          ops: [op('op-1', 0, 500, outcome, { tool: 'settle_batch', sideEffecting: true })],
          effects: raced.effects,
        }),
      );
    // Work that claims before charging, cancelled before its claim: the cancel won, nothing was charged, no ghost.
    const honest = await race(true, 'op-1', true);
    expect(honest.attempt.task).toMatchObject({ status: 'cancelled', cancel: 'won' });
    expect(honest.effects).toHaveLength(0);
    expect(judge(honest)).toMatchObject({ ghostEffects: 0, tasksCancelledAndCharged: 0 });
    // Negative control: work that charges without claiming: the cancelled op was charged, a ghost and the detector.
    const lying = await race(false, 'op-1');
    expect(judge(lying)).toMatchObject({ ghostEffects: 1, tasksCancelledAndCharged: 1 });
  });

  it('a cancel that won before the charge, then a retry that charged: the retry charge is not the cancelled task', () => {
    const cancelled = attempt('op-1', 1, 0, 300, false, {
      task: { status: 'cancelled', resumedPolls: 0, cancel: 'won' },
    });
    const retried = attempt('op-1', 2, 350, 700, true, { task: { status: 'completed', resumedPolls: 0 } });
    const m = metricsOf([cancelled, retried], [effect('op-1', { attempt: 2 })]);
    expect(m).toMatchObject({ taskCancelsSent: 1, taskCancelsWon: 1, tasksCancelledAndCharged: 0 });
  });

  it('n/a, never 0, when no task ended cancelled or an effect cannot be matched to its attempt', () => {
    const refused = attempt('op-1', 1, 0, 300, true, {
      task: { status: 'completed', resumedPolls: 0, cancel: 'refused' },
    });
    expect(metricsOf([refused], [effect('op-1', { attempt: 1 })])).toMatchObject({
      tasksCancelledAndCharged: null,
      tasksCancelledAndChargedNa: 'no task ended cancelled',
    });
    const won = attempt('op-1', 1, 0, 300, false, { task: { status: 'cancelled', resumedPolls: 0, cancel: 'won' } });
    expect(metricsOf([won], [effect('op-1')]).tasksCancelledAndCharged).toBeNull();
  });

  it('absent when no cancel was sent and no task ended cancelled', () => {
    const plain = attempt('op-1', 1, 0, 300, true, { task: { status: 'completed', resumedPolls: 0 } });
    expect(metricsOf([plain], [effect('op-1', { attempt: 1 })])).toEqual({});
  });
});
