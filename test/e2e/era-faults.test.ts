// Issue 11 item 3: the 2026-07-28 era's own faults, each a shipped profile that passes with the resilient client
// in the pairing it is about, and a control that fires: an answer lost after the commit (re-issue duplicates),
// a hang-up as cancellation (ghosts), UnsupportedProtocolVersion (-32022) with the client's continuation, and a
// mixed fleet (each request on a 2025-only or a 2026-only replica over one ledger). A profile's resilient run in the
// pairing the default suite runs it in is that run's (suite-checks/era.ts); the other pairings run here.
import { describe, expect, it } from 'vitest';
import { pairingsOf } from '../../src/core/pairing.ts';
import { expectPassed, failing, runShipped } from '../helpers/run.ts';
import { expectFleetReissued, expectLostAnswersSettled, refusedByOtherEra } from './suite-checks/era.ts';

const T = 90_000;
const modern = pairingsOf('modern')[0];
const auto = pairingsOf('auto')[0];

// drop-after-commit runs one op at a time over an op window (ops 3-11, first two attempts), so in both eras the same
// answers are lost, and with nothing else in flight the status lookup after each loss finds the charge: the op is
// settled by it and never re-sent. (Run open-model, whether the lookup or a re-issue settled it varied by run.)
// Legacy's resilient run is the default suite's; both are checked by suite-checks/era.ts's one function.
describe.concurrent('drop-after-commit (modern)', () => {
  it('resilient: each lost answer is settled by a status lookup that finds the charge; nothing charged twice', {
    timeout: T,
  }, async () => {
    expectLostAnswersSettled(await runShipped('drop-after-commit', undefined, undefined, modern), 'LINK.RESET');
  });
});

for (const pairing of [modern, pairingsOf('legacy')[0]]) {
  it(`drop-after-commit (${pairing.name}), naive control: a fresh key on every re-issue charges again`, {
    timeout: T,
  }, async () => {
    const r = await runShipped('drop-after-commit', 'naive', undefined, pairing);
    expect(r.report.metrics.faultWindows[0].hits).toBe(r.report.metrics.duplicateEffects);
    expectPassed(r.report);
  });
}

describe.concurrent('drop-after-commit with an event store (legacy)', () => {
  it('a stream that carried an event id is left to the SDK: it resumes with Last-Event-ID, no attempt ends lost', {
    timeout: T,
  }, async () => {
    const r = await runShipped('drop-after-commit', undefined, undefined, pairingsOf('legacy')[0], (profile) => {
      if (profile.target.kind === 'reference') profile.target.eventStore = true;
    });
    // Every lost answer came back on the resumed stream: nothing to retry (retry_success_rate is n/a).
    expect(r.report.metrics.faultWindows[0].hits).toBeGreaterThan(0);
    expect(r.report.metrics).toMatchObject({ opsFail: 0, duplicateEffects: 0, lostEffects: 0 });
    const attempts = r.history.attempts ?? [];
    expect(attempts.filter((a) => !a.ok)).toEqual([]);
    expect(attempts.filter((a) => (a.resumptions ?? 0) > 0).length).toBe(r.report.metrics.faultWindows[0].hits);
  });
});

describe.concurrent('stream-abandon (modern)', () => {
  it('the SDK 2.4 server takes the hang-up as a cancellation: failed ops published nothing', {
    timeout: T,
  }, async () => {
    const r = await runShipped('stream-abandon', undefined, undefined, modern);
    expect(failing(r)).toBe('');
    // Op windows: the first try of ops 0..6 (7 hang-ups), both tries of ops 7..9 (6), which fail (a busy machine
    // may time out a second try of ops 0..6 too).
    expect(r.report.metrics.faultWindows.map((w) => w.hits)).toEqual([7, 6]);
    expect(r.report.metrics.opsFail).toBeGreaterThanOrEqual(3);
    expect(r.report.metrics.ghostEffects).toBe(0);
  });

  it('control: a tool that ignores its signal publishes for ops the client saw fail', { timeout: T }, async () => {
    const r = await runShipped('stream-abandon-ignored', undefined, undefined, modern);
    expect(failing(r)).toBe('');
    // Each of the 3 ops that lost both tries (ops 7..9) published anyway.
    expect(r.report.metrics.ghostEffects).toBeGreaterThanOrEqual(3);
  });
});

describe.concurrent('unsupported-version (auto)', () => {
  it('none control: the refused call is not continued and fails', { timeout: T }, async () => {
    const r = await runShipped('unsupported-version', 'none', undefined, auto);
    expect(r.report.metrics.opsFail).toBeGreaterThan(0);
    expect(r.report.metrics.errorsByCode['PROTO.VERSION_REFUSED']).toBeGreaterThan(0);
    expectPassed(r.report);
  });
});

describe.concurrent('mixed-fleet (modern, auto)', () => {
  // Legacy's resilient run is the default suite's (suite-checks/era.ts).
  for (const pairing of [modern, auto]) {
    it(`resilient (${pairing.name}): refused by the other era's replica, it re-issues with the same key; every op ends ok, charged once`, {
      timeout: T,
    }, async () => {
      expectFleetReissued(await runShipped('mixed-fleet', undefined, undefined, pairing));
    });
  }

  it('none control (auto): a call refused by the other era is not continued and fails', { timeout: T }, async () => {
    const r = await runShipped('mixed-fleet', 'none', undefined, auto);
    expect(r.report.metrics.opsFail).toBeGreaterThan(0);
    expect(refusedByOtherEra(r).length).toBeGreaterThan(0);
    expect(r.report.verdict).toBe('pass');
  });
});
