// Issue 29 item 2, the resilient half: the 2026-07-28 primitives under faults (tasks, input rounds, the listen
// stream), each shipped profile in the modern pairing the suite runs it in. tasks.test.ts, task-server-restart,
// input-rounds and listen-cut run the controls.
import { expect, it } from 'vitest';
import type { ProfileResult } from '../../../src/run/run-profile.ts';
import { expectPassed, failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

/** Fault hits over every window of the run. */
export const hitsOf = (r: ProfileResult) => r.report.metrics.faultWindows.reduce((sum, w) => sum + (w.hits ?? 0), 0);

export function primitiveChecks(shipped: ShippedRun): void {
  it('task-poll-errors: every failed poll is resumed by the task id; one task and one charge per op', () => {
    const r = shipped('task-poll-errors', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    const hits = hitsOf(r);
    expect(hits).toBeGreaterThan(0);
    expect(m.pollsResumed).toBe(hits);
    expect(m.tasksCreated).toBe(12);
    expect(m.tasksCompleted).toBe(12);
    expect(m.tasksRecreated).toBe(0);
    expect(m.duplicateEffects).toBe(0);
    expectPassed(r.report);
  });

  it('task-server-restart: forgotten tasks are created again with the same key; one charge per op', () => {
    const r = shipped('task-server-restart', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    expect(m.faultWindows.find((w) => w.kind === 'crash')?.hits).toBe(1);
    expect(m.tasksForgotten).toBeGreaterThan(0);
    expect(m.tasksRecreated).toBe(0);
    expect(m.opsOk).toBe(12);
    expect(m.duplicateEffects).toBe(0);
    expect(m.lostEffects).toBe(0);
    expectPassed(r.report);
  });

  // A cancel racing a task's completion, sent on the wire by the edge (cancel-race) just before a poll near the
  // work's end. The server's one-outcome rule (claim before charge, a cancel after the claim refused) must leave
  // every task either cancelled with nothing charged or completed with one charge. The detector's negative control
  // (work that charges without claiming) is test/unit/measure/task-cancels.test.ts.
  it('task-cancel-race: every cancel sent is answered won or refused; no cancelled task charged, no op charged twice or after failing', () => {
    const r = shipped('task-cancel-race', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    const hits = hitsOf(r);
    expect(hits).toBeGreaterThan(0);
    expect(m.taskCancelsSent).toBe(hits);
    expect(m.taskCancelsWon! + m.taskCancelsRefused!).toBe(hits);
    // A won cancel ends its task cancelled: the client saw it so and gave its op up. The server said nothing was
    // charged, so the op failed for certain (RESOURCE.TASK_CANCELLED, not retried): fail, not info; the ledger
    // checks the server's word (a cancelled op that charged would be a ghost, and tasks_cancelled_and_charged).
    expect(m.tasksCreated! - m.tasksCompleted!).toBe(m.taskCancelsWon);
    expect(m.opsFail).toBe(m.taskCancelsWon);
    expect(m.errorsByCode['RESOURCE.TASK_CANCELLED'] ?? 0).toBe(m.taskCancelsWon);
    expect(m.opsInfo).toBe(0);
    expect(m.tasksCancelledAndCharged ?? 0).toBe(0);
    expect(m.duplicateEffects).toBe(0);
    expect(m.ghostEffects).toBe(0);
    expect(m.lostEffects).toBe(0);
    expectPassed(r.report);
  });

  it('input-round-lost: every lost round is settled by the status lookup, one charge and two round trips per call', () => {
    const r = shipped('input-round-lost', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    expect(m.faultWindows[0].hits).toBeGreaterThan(0);
    expect(m.errorsByCode['EDGE.HTTP_502']).toBe(m.faultWindows[0].hits);
    expect(m.callsWithInput).toBe(18);
    expect(m.roundsPerCompletedCall).toBe(2);
    expect(m.duplicateEffects).toBe(0);
    expectPassed(r.report);
  });

  it('request-state-tampered: each refused round starts the call again with the same key, one charge per op', () => {
    const r = shipped('request-state-tampered', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    const hits = m.faultWindows[0].hits ?? 0;
    expect(hits).toBeGreaterThan(0);
    expect(m.errorsByCode['VALIDATION.REQUEST_STATE']).toBe(hits);
    expect(m.attempts).toBe(18 + hits);
    expect(m.lostEffects).toBe(0);
    expect(m.duplicateEffects).toBe(0);
    expectPassed(r.report);
  });

  it('request-state-expired: each round refused as expired starts the call again with the same key, one charge per op', () => {
    const r = shipped('request-state-expired', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    const hits = m.faultWindows[0].hits ?? 0;
    expect(hits).toBeGreaterThan(0);
    expect(m.errorsByCode['VALIDATION.REQUEST_STATE_EXPIRED']).toBe(hits);
    expect(m.attempts).toBe(12 + hits);
    expect(m.duplicateEffects).toBe(0);
    expect(m.lostEffects).toBe(0);
    expectPassed(r.report);
  });

  it('listen-cut: listens again after every cut and catches up, no charge missed', () => {
    const r = shipped('listen-cut', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    const cuts = m.faultWindows[0].hits ?? 0;
    expect(cuts).toBeGreaterThan(0);
    expect(m.relistens).toBe(cuts);
    expect(m.changesMissed).toBe(0);
    expect((m.notificationsDelivered ?? 0) + (m.notificationsLost ?? 0)).toBe(m.ops);
    expectPassed(r.report);
  });
}
