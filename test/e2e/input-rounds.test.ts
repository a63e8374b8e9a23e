// Issue 29 item 2: a lost input_required round. transfer_funds asks for confirmation before it charges; the edge
// loses the confirmed round after the server ran it. The resilient client settles it by the key's status (one
// charge, two round trips per call); the naive control starts the call again with a fresh key and charges twice.
// The resilient runs are the default suite's (suite-checks/primitives.ts); the controls run here.
import { describe, expect, it } from 'vitest';
import { pairingsOf } from '../../src/core/pairing.ts';
import { expectPassed, runShipped } from '../helpers/run.ts';

const T = 120_000;
const [modern] = pairingsOf('modern');

const run = (policy?: 'naive' | 'none', name = 'input-round-lost') => runShipped(name, policy, undefined, modern);

describe('input-round-lost (modern)', () => {
  it('naive control: a lost round is started again with a fresh key, a second charge each time', {
    timeout: T,
  }, async () => {
    const r = await run('naive');
    const m = r.report.metrics;
    expect(m.duplicateEffects).toBe(m.faultWindows[0].hits);
    expect(m.duplicateEffects).toBeGreaterThan(0);
    expect(m.roundsPerCompletedCall).toBeGreaterThan(2);
    expectPassed(r.report);
  });
});

// Item 2's tampered request state: the edge alters the signed state on the confirmed round; the server refuses it
// before anything is charged, and says to start again.
describe('request-state-tampered (modern)', () => {
  const tampered = (policy?: 'naive' | 'none') => run(policy, 'request-state-tampered');

  it('none control: every refused round is a failed op, and nothing was charged for it', { timeout: T }, async () => {
    const r = await tampered('none');
    const m = r.report.metrics;
    const hits = m.faultWindows[0].hits ?? 0;
    expect(hits).toBeGreaterThan(0);
    expect(m.errorsByCode['VALIDATION.REQUEST_STATE']).toBe(hits);
    expect(m.opsFail).toBe(hits);
    // A refused round that had charged would be a failed op with an effect: a ghost.
    expect(m.ghostEffects).toBe(0);
    expectPassed(r.report);
  });

  it('naive control: a fresh key costs nothing here (the refused round charged nothing)', { timeout: T }, async () => {
    const r = await tampered('naive');
    const m = r.report.metrics;
    expect(m.faultWindows[0].hits).toBeGreaterThan(0);
    expect(m.duplicateEffects).toBe(0);
    expect(m.opsFail).toBe(0);
    expectPassed(r.report);
  });
});

// An expired request state: the server honours a state for 600 ms and the edge holds the confirmed round for 800 ms.
describe('request-state-expired (modern)', () => {
  const expired = (policy?: 'none') => run(policy, 'request-state-expired');

  it('none control: every late round is a failed op, and nothing was charged for it', { timeout: T }, async () => {
    const r = await expired('none');
    const m = r.report.metrics;
    const hits = m.faultWindows[0].hits ?? 0;
    expect(hits).toBeGreaterThan(0);
    expect(m.errorsByCode['VALIDATION.REQUEST_STATE_EXPIRED']).toBe(hits);
    expect(m.opsFail).toBe(hits);
    expect(m.ghostEffects).toBe(0);
    expectPassed(r.report);
  });
});
