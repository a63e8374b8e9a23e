// Issue 29 item 2, on the 2026-07-28 wire: a cancel racing a task's completion, sent on the wire by the edge
// (cancel-race) just before a poll near the work's end. The server's one-outcome rule (claim before charge, a cancel
// after the claim refused) must leave every task either cancelled with nothing charged or completed with one
// charge. The detector's negative control (work that charges without claiming) is
// test/unit/measure/task-cancels.test.ts.
import { expect, it } from 'vitest';
import { expectPassed, failing } from '../../helpers/run.ts';
import type { ShippedRun } from './shipped-run.ts';

export function taskChecks(shipped: ShippedRun): void {
  it('task-cancel-race (modern): every cancel sent is answered won or refused; no cancelled task charged, no op charged twice or after failing', () => {
    const r = shipped('task-cancel-race', 'modern');
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    const hits = m.faultWindows.reduce((sum, w) => sum + (w.hits ?? 0), 0);
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
}
