// Issue 29 item 2: a subscriptions/listen stream cut with announcements in the gap. The resilient client listens
// again after every cut and catches up by one read (nothing missed); the naive control, like SDK 2.4 by itself,
// stays deaf after the first cut and misses every later charge. The resilient run is the default suite's
// (suite-checks/primitives.ts).
import { describe, expect, it } from 'vitest';
import { pairingsOf } from '../../src/core/pairing.ts';
import { expectPassed, runShipped } from '../helpers/run.ts';

const T = 120_000;
const [modern] = pairingsOf('modern');

const run = (policy?: 'naive') => runShipped('listen-cut', policy, undefined, modern);

describe('listen-cut (modern)', () => {
  it('naive control: deaf after the first cut, every later charge missed', { timeout: T }, async () => {
    const r = await run('naive');
    const m = r.report.metrics;
    expect(m.faultWindows[0].hits).toBe(1);
    expect(m.relistens).toBe(0);
    expect(m.changesMissed).toBe(m.notificationsLost);
    expect(m.changesMissed).toBeGreaterThan(0);
    expectPassed(r.report);
  });
});
