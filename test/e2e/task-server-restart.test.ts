// Issue 29 item 2: the reference server restarts while tasks run (server crash, SIGKILL, back 100 ms later). Its
// task store is gone: a poll after the restart is answered -32602 unknown task; the ledger and the payments API's
// idempotency keys survive. The resilient client creates a forgotten task again with the same key (the payments
// API answers the charge already made); the naive control calls the tool again with a fresh key and pays twice
// for every task that had charged before the kill. The resilient run is the default suite's
// (suite-checks/primitives.ts).
import { describe, expect, it } from 'vitest';
import { pairingsOf } from '../../src/core/pairing.ts';
import { expectPassed, runShipped } from '../helpers/run.ts';

const T = 120_000;
const [modern] = pairingsOf('modern');

const run = (policy?: 'naive') => runShipped('task-server-restart', policy, undefined, modern);

describe('task-server-restart (modern)', () => {
  it('naive control: a fresh key after the restart charges again for every task that had charged', {
    timeout: T,
  }, async () => {
    const r = await run('naive');
    const m = r.report.metrics;
    expect(m.tasksForgotten).toBe(0);
    expect(m.tasksRecreated).toBeGreaterThan(0);
    // Only a task killed after its charge committed is paid twice.
    expect(m.duplicateEffects).toBeGreaterThan(0);
    expect(m.duplicateEffects).toBeLessThanOrEqual(m.tasksRecreated!);
    expectPassed(r.report);
  });
});
