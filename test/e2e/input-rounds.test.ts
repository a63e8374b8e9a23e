// Issue 29 item 2: a lost input_required round. transfer_funds asks for confirmation before it charges; the edge
// loses the confirmed round after the server ran it. The resilient client settles it by the key's status (one
// charge, two round trips per call); the naive control starts the call again with a fresh key and charges twice.
import { describe, expect, it } from 'vitest';
import { pairingsOf } from '../../src/core/pairing.ts';
import { expectPassed, failing, runShipped } from '../helpers/run.ts';

const T = 120_000;
const [modern] = pairingsOf('modern');

const run = (policy?: 'naive') => runShipped('input-round-lost', policy, undefined, modern);

describe('input-round-lost (modern)', () => {
  it('resilient: every lost round is settled by the status lookup, one charge and two round trips per call', {
    timeout: T,
  }, async () => {
    const r = await run();
    expect(failing(r)).toBe('');
    const m = r.report.metrics;
    expect(m.faultWindows[0].hits).toBeGreaterThan(0);
    expect(m.errorsByCode['EDGE.HTTP_502']).toBe(m.faultWindows[0].hits);
    expect(m.callsWithInput).toBe(18);
    expect(m.roundsPerCompletedCall).toBe(2);
    expect(m.duplicateEffects).toBe(0);
    expectPassed(r.report);
  });

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
