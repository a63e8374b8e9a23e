// Issue 29 item 2: tasks under faults. settle_batch runs as a task; the edge answers some tasks/get polls 429
// (with Retry-After) or 503. The resilient client resumes the task by its id: one task and one charge per op. The
// naive control calls the tool again with a fresh key; the abandoned task still charges: duplicate effects. The
// resilient run is the default suite's (suite-checks/primitives.ts).
import { describe, expect, it } from 'vitest';
import { pairingsOf } from '../../src/core/pairing.ts';
import { expectPassed, runShipped } from '../helpers/run.ts';
import { hitsOf } from './suite-checks/primitives.ts';

const T = 120_000;
const [modern] = pairingsOf('modern');

const run = (policy?: 'naive') => runShipped('task-poll-errors', policy, undefined, modern);

describe('task-poll-errors (modern)', () => {
  it('naive control: a failed poll makes it call the tool again; the abandoned task charges too', {
    timeout: T,
  }, async () => {
    const r = await run('naive');
    const m = r.report.metrics;
    expect(hitsOf(r)).toBeGreaterThan(0);
    expect(m.pollsResumed).toBe(0);
    expect(m.tasksRecreated).toBeGreaterThan(0);
    // Each task abandoned after a failed poll ran to its charge anyway.
    expect(m.tasksCreated! - m.tasksCompleted!).toBe(m.duplicateEffects! + m.ghostEffects!);
    expect(m.duplicateEffects).toBeGreaterThan(0);
    expectPassed(r.report);
  });
});
