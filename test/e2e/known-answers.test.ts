// Known answers (issue 13 item 11): small profiles whose results are worked out in advance, each asserting EXACT
// equality on the numbers report.json shows, with the expected numbers and the reasoning beside each case.
//
// How the counts are made independent of the machine's speed (these run on a loaded 2-core box):
// - closed model, one op in flight, `ops: N`: exactly N ops, one after another, however slow the pair is, so no
//   two ops ever race for a fault's counter;
// - every fault window opens at 0 (the workload starts once it is in place) and, having no `stop`, stays until
//   the last op has ended: every op runs under it;
// - faults that count (flap fails its first N calls, commit-then-fail acts on every call) rather than draw;
// - only the POST (write) path is faulted where the resilient client's status lookup (a GET) would otherwise
//   use up a flap's failures.
// Times are never asserted, only counts; the one timing-dependent case (c) has a margin of seconds.
import { describe, expect, it } from 'vitest';
import { wholeHistory } from '../../src/core/history-records.ts';
import { computeMetrics } from '../../src/measure/metrics.ts';
import type { ProfileReport } from '../../src/measure/run-report.ts';
import { buildProfileReport } from '../../src/measure/verdict.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { type LoadedProfile, parseProfile } from '../../src/profile/load.ts';
import { metricsOptionsFor } from '../../src/run/judging.ts';
import { runProfile } from '../../src/run/run-profile.ts';
import { expectVerdict } from '../helpers/run.ts';

const COMMON = `seed: 11
target: { kind: reference, dependencyTimeoutMs: 1000 }`;
const RESILIENT =
  'client: { policy: resilient, attemptTimeoutMs: 2000, deadlineMs: 8000, maxAttempts: 8, backoff: { initialMs: 10, maxMs: 20 } }';
const PAYMENT = `    - tool: create_payment
      args: { customer_id: "cus_{op}", amount_cents: 1000, currency: USD }`;

function profile(name: string, body: string, duration = '1s'): LoadedProfile {
  return parseProfile(
    `${name}.yaml`,
    `name: ${name}\ndescription: known answer\nduration: ${duration}\n${COMMON}\n${body}`,
  );
}

/** The numbers report.json shows for one profile (read from its JSON form; n/a is null). */
function numbers(report: ProfileReport) {
  const r = JSON.parse(JSON.stringify(report)) as ProfileReport;
  const m = r.metrics;
  return {
    ops: m.ops,
    ok: m.opsOk,
    failed: m.opsFail,
    info: m.opsInfo,
    attempts: m.attempts,
    retriedOps: m.retriedOps,
    retrySuccessRate: m.retrySuccessRate,
    effects: m.reconciliation.effects,
    byArgsKey: m.reconciliation.byArgsKey,
    duplicateEffects: m.duplicateEffects,
    ghostEffects: m.ghostEffects,
    lostEffects: m.lostEffects,
    resultsLost: m.delivery?.lost,
    indeterminateEffects: m.reconciliation.infoWithEffectOps.length,
    unattributedEffects: m.unattributedEffects,
    hits: Object.fromEntries(m.faultWindows.map((w) => [w.fault, w.hits])),
    verdict: r.verdict,
    ...(r.verdictReason !== undefined && { verdictReason: r.verdictReason }),
  };
}

/**
 * Every number exactly as expected, and the expected verdict (a pass may only be softened by a time bound that this
 * machine's timing missed, named: test/helpers/run.ts; the counts hold all the same).
 */
function expectAnswer(report: ProfileReport, expected: ReturnType<typeof numbers>): void {
  const { verdict, verdictReason, ...counts } = numbers(report);
  const { verdict: expectedVerdict, verdictReason: expectedReason, ...expectedCounts } = expected;
  expect(counts).toEqual(expectedCounts);
  expectVerdict(report, expectedVerdict, expectedReason);
}

// As `faultline run` does: records whole on disk (the record log), slim in memory. The same history whole in memory (the in-memory
// path) must give the very same metrics, so every known answer holds for both.
const run = async (loaded: LoadedProfile) => {
  const result = await runProfile(loaded, {
    signal: new AbortController().signal,
    network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
    spillHistory: true,
  });
  const options = metricsOptionsFor(loaded.profile);
  expect(JSON.stringify(computeMetrics(wholeHistory(result.history), options))).toBe(
    JSON.stringify(computeMetrics(result.history, options)),
  );
  // The report's metrics come from the accumulators the Recorder fed live; a replay of the history gives the same.
  expect(JSON.stringify(result.report.metrics)).toBe(JSON.stringify(computeMetrics(result.history, options)));
  return result;
};

describe.concurrent('known answers', () => {
  it('(a) flap: the first 3 charges fail, then every call goes through (resilient)', async () => {
    const { report } = await run(
      profile(
        'ka-flap',
        `${RESILIENT}
workload:
  concurrency: 1
  ops: 4
  mix:
${PAYMENT}
faults:
  - { seam: dependency, kind: flap, dependency: payments, method: POST, failTimes: 3, status: 503, start: 0s }`,
      ),
    );
    expectAnswer(report, {
      ops: 4,
      ok: 4, // op 0 rides out the 3 failures; ops 1-3 never see one
      failed: 0,
      info: 0,
      attempts: 7, // op 0: 3 failed POSTs + 1 ok; ops 1-3: 1 each
      retriedOps: 1, // only op 0 had a failed attempt (the ops run one at a time)
      retrySuccessRate: 1, // 1 of 1 retried ops ended ok
      effects: 4, // a 503 "before" charges nothing: one charge per op
      byArgsKey: 0, // every effect carries its trace id
      duplicateEffects: 0,
      ghostEffects: 0,
      lostEffects: 0,
      resultsLost: 0,
      indeterminateEffects: 0,
      unattributedEffects: 0,
      hits: { 'f0-dependency-flap': 3 }, // failTimes; the status lookups are GETs, outside the fault
      verdict: 'pass',
    });
  });

  it('(b) commit then fail under the naive policy: every try charges, so 3 tries = 2 duplicates per op', async () => {
    const { report } = await run(
      profile(
        'ka-commit-then-fail',
        `client: { policy: naive, attemptTimeoutMs: 2000, deadlineMs: 8000, maxAttempts: 3 }
workload:
  concurrency: 1
  ops: 3
  mix:
${PAYMENT}
faults:
  - { seam: dependency, kind: commit-then-fail, dependency: payments, status: 502, start: 0s }`,
      ),
    );
    expectAnswer(report, {
      ops: 3,
      ok: 0,
      failed: 0,
      info: 3, // a 502 after the charge is ambiguous: the client cannot know, so info, not fail
      attempts: 9, // 3 ops x maxAttempts 3, every one answered 502
      retriedOps: 3,
      retrySuccessRate: 0, // none of the 3 retried ops ended ok
      effects: 9, // each try charged: naive sends a fresh idempotency key per try
      byArgsKey: 0,
      duplicateEffects: 6, // 3 ops x (3 charges - 1)
      ghostEffects: 0, // a ghost is a `fail` op with an effect; these are `info`
      lostEffects: 0,
      resultsLost: 0, // delivery counts these ops as duplicated, not lost
      indeterminateEffects: 3, // the 3 info ops whose effect exists
      unattributedEffects: 0,
      hits: { 'f0-dependency-commit-then-fail': 9 }, // every POST
      verdict: 'pass', // no thresholds but the implicit unattributed_effects == 0
    });
  });

  it('(c) a late commit after cancellation: the tool ignores the abort and publishes after the op failed', async () => {
    // Each try times out at 800 ms; the resilient client looks the report up (absent: not yet published), tries
    // once more with the same key, looks up again (absent) and gives up: a definite `fail`. The handler, which
    // ignores the cancellation, publishes 4 s after it started, well after the op ended (margin: over 2 s); the
    // second try shares the idempotency key, so the reports API publishes once per op. (An 800 ms attempt timeout
    // stays sound for a calibration p95 up to 200 ms, a quarter of it; 300 ms made a loaded run inconclusive.)
    const { report } = await run(
      profile(
        'ka-late-commit',
        `client: { policy: resilient, attemptTimeoutMs: 800, deadlineMs: 3200, maxAttempts: 2, backoff: { initialMs: 10, maxMs: 20 } }
workload:
  concurrency: 1
  ops: 2
  mix:
    - tool: generate_report
      args: { report_type: sales, duration_ms: 4000, ignore_cancel: true }
expect:
  - ghost_effects == 2`,
      ),
    );
    expectAnswer(report, {
      ops: 2,
      ok: 0,
      failed: 2, // the lookups found nothing: the client concluded nothing happened
      info: 0,
      attempts: 4, // 2 timed-out tries per op
      retriedOps: 2,
      retrySuccessRate: 0,
      effects: 2, // one publication per op, after the drain waited for the handlers
      byArgsKey: 0,
      duplicateEffects: 0, // same key on both tries
      ghostEffects: 2, // failed ops whose effect exists
      lostEffects: 0,
      resultsLost: 0, // ghosts are not counted as lost results too
      indeterminateEffects: 0,
      unattributedEffects: 0,
      hits: {}, // ignore_cancel is the tool's behaviour, not a fault window
      verdict: 'pass',
    });
  });

  it('(d) an inert fault: a flap on the notifications API, which no op calls, hits nothing', async () => {
    const { report } = await run(
      profile(
        'ka-inert',
        `${RESILIENT}
workload:
  concurrency: 1
  ops: 3
  mix:
${PAYMENT}
faults:
  - { seam: dependency, kind: flap, dependency: notifications, failTimes: 3, start: 0s }
expect:
  - retry_success_rate >= 0.99 or n/a`,
      ),
    );
    expectAnswer(report, {
      ops: 3,
      ok: 3,
      failed: 0,
      info: 0,
      attempts: 3,
      retriedOps: 0,
      retrySuccessRate: null, // n/a: nothing was retried
      effects: 3,
      byArgsKey: 0,
      duplicateEffects: 0,
      ghostEffects: 0,
      lostEffects: 0,
      resultsLost: 0,
      indeterminateEffects: 0,
      unattributedEffects: 0,
      hits: { 'f0-dependency-flap': 0 },
      verdict: 'inert', // although every threshold holds: they were measured without the fault
      verdictReason: 'fault window f0-dependency-flap hit nothing',
    });
    expect(report.thresholds.every((t) => t.ok)).toBe(true);
  });

  it('(e) no faults: retry and recovery metrics are n/a, and pass only where the threshold allows n/a', async () => {
    // The recovery bound is loose on purpose: what is judged is n/a, and a loaded machine's calibration margin
    // (4 x its p95 excess: +1092 ms at p95 278 ms, measured) outgrew a 1000 ms bound, making the run inconclusive.
    const { report, history } = await run(
      profile(
        'ka-no-faults',
        `${RESILIENT}
workload:
  concurrency: 1
  ops: 3
  mix:
${PAYMENT}
expect:
  - retry_success_rate >= 0.99 or n/a
  - recovery_ms <= 5000 or n/a`,
      ),
    );
    expectAnswer(report, {
      ops: 3,
      ok: 3,
      failed: 0,
      info: 0,
      attempts: 3,
      retriedOps: 0,
      retrySuccessRate: null,
      effects: 3,
      byArgsKey: 0,
      duplicateEffects: 0,
      ghostEffects: 0,
      lostEffects: 0,
      resultsLost: 0,
      indeterminateEffects: 0,
      unattributedEffects: 0,
      hits: {},
      verdict: 'pass',
    });
    expect(report.metrics.recovery).toEqual([]); // no window: nothing to recover from
    expect(report.thresholds.map((t) => [t.metric, t.actual, t.na, t.ok])).toEqual([
      ['retry_success_rate', null, true, true],
      ['recovery_ms', null, true, true],
      ['unattributed_effects', 0, undefined, true],
    ]);
    // The same history judged by thresholds that do not allow n/a: both fail, saying there was nothing to measure.
    const strict = buildProfileReport({
      name: 'ka-no-faults-strict',
      seed: 11,
      policy: 'resilient',
      history,
      expect: ['retry_success_rate >= 0.99', 'recovery_ms <= 5000'],
      decisionLogSha256: report.decisionLogSha256,
    });
    expect(strict.verdict).toBe('fail');
    expect(strict.thresholds.map((t) => [t.metric, t.ok, t.reason])).toEqual([
      ['retry_success_rate', false, 'nothing to measure: no op had a failed attempt'],
      ['recovery_ms', false, 'nothing to measure: no fault window'],
      ['unattributed_effects', true, undefined],
    ]);
  });

  it('(f) overlapping windows keep their own counters: fail 2 + fail 3 = 5 failures, whatever opens meanwhile', async () => {
    // f0 and f1 are both on the charge path from 0; f2 opens and closes on another API while they run. Were the
    // counters shared, there would be 3 failures; were they reset when f2 opens or closes (the old rebuild of the
    // whole set), every failure spent before that moment would come again: more than 5. Backoff up to 600 ms
    // (seeded) keeps op 0 retrying for 1.3 s: f2 opened after its 1st failure and closed after its 4th (measured
    // +110 and +1240 ms), and a slower machine only moves the ops later. f2 lasts 1.2 s, not 0.2 s: a loaded
    // machine's calibration (p95 over a quarter of the shortest window) made the 0.2 s run inconclusive.
    const { report } = await run(
      profile(
        'ka-overlap',
        `client: { policy: resilient, attemptTimeoutMs: 2000, deadlineMs: 8000, maxAttempts: 8, backoff: { initialMs: 600, maxMs: 600 } }
workload:
  concurrency: 1
  ops: 4
  mix:
${PAYMENT}
faults:
  - { seam: dependency, kind: flap, dependency: payments, method: POST, failTimes: 2, start: 0s }
  - { seam: dependency, kind: flap, dependency: payments, method: POST, failTimes: 3, start: 0s }
  - { seam: dependency, kind: flap, dependency: search, failTimes: 1, start: 0.05s, stop: 1.25s, mayNotHit: true }`,
        '1.25s',
      ),
    );
    expectAnswer(report, {
      ops: 4,
      ok: 4,
      failed: 0,
      info: 0,
      attempts: 9, // op 0: 5 failed POSTs + 1 ok (maxAttempts 8 leaves room); ops 1-3: 1 each
      retriedOps: 1,
      retrySuccessRate: 1,
      effects: 4,
      byArgsKey: 0,
      duplicateEffects: 0,
      ghostEffects: 0,
      lostEffects: 0,
      resultsLost: 0,
      indeterminateEffects: 0,
      unattributedEffects: 0,
      hits: { 'f0-dependency-flap': 2, 'f1-dependency-flap': 3, 'f2-dependency-flap': 0 },
      verdict: 'pass', // f2 may not hit (no op searches)
    });
  });

  it('(g) effects without a trace id are attributed by their unique arguments: exact duplicates, none unattributed', async () => {
    const loaded = profile(
      'ka-strip-trace',
      `client: { policy: naive, attemptTimeoutMs: 2000, deadlineMs: 8000, maxAttempts: 2 }
workload:
  concurrency: 1
  ops: 4
  mix:
${PAYMENT}
    - tool: send_notification
      args: { recipient: "u{op}@example.com", channel: email, message: "hello {op}" }
faults:
  - { seam: edge, kind: strip-trace, start: 0s }
  - { seam: dependency, kind: commit-then-fail, dependency: payments, status: 502, start: 0s }`,
    );
    // The plan (seed 11) is what the expected numbers follow from: 2 charges, then 2 notifications.
    const tools = buildPlan(loaded.profile, 11)
      .ops.first(4)
      .map((op) => op.tool);
    expect(tools).toEqual(['create_payment', 'create_payment', 'send_notification', 'send_notification']);
    const { report, history } = await run(loaded);
    expect([...history.effects].every((e) => e.traceId === undefined)).toBe(true);
    expectAnswer(report, {
      ops: 4,
      ok: 2, // the notifications
      failed: 0,
      info: 2, // the charges: every try answered 502 after charging
      attempts: 6, // 2 charges x 2 tries + 2 notifications x 1
      retriedOps: 2,
      retrySuccessRate: 0,
      effects: 6, // 4 charges + 2 messages, none with a trace id
      byArgsKey: 6, // every one attributed by its op's unique arguments (customer id, recipient and message)
      duplicateEffects: 2, // each charge op charged twice (naive: fresh key per try)
      ghostEffects: 0,
      lostEffects: 0, // the ok notifications are found although their effects carry no trace id
      resultsLost: 0,
      indeterminateEffects: 2,
      unattributedEffects: 0,
      hits: { 'f0-edge-strip-trace': 6, 'f1-dependency-commit-then-fail': 4 }, // every tools/call; every charge POST
      verdict: 'pass',
    });
  });

  it('(h) a fabricated success (2xx, nothing done) shows as a lost effect for every op it answered', async () => {
    const { report } = await run(
      profile(
        'ka-fabricated-success',
        `${RESILIENT}
workload:
  concurrency: 1
  ops: 3
  mix:
${PAYMENT}
faults:
  - { seam: dependency, kind: fabricated-success, dependency: payments, method: POST, start: 0s }
expect:
  - lost_effects == 0`,
      ),
    );
    expectAnswer(report, {
      ops: 3,
      ok: 3, // the tool reported every charge as made
      failed: 0,
      info: 0,
      attempts: 3,
      retriedOps: 0,
      retrySuccessRate: null,
      effects: 0, // no charge was ever made
      byArgsKey: 0,
      duplicateEffects: 0,
      ghostEffects: 0,
      lostEffects: 3, // ok side-effecting ops without an effect: all 3
      resultsLost: 0, // results_lost is the opposite case (an effect whose result never arrived)
      indeterminateEffects: 0,
      unattributedEffects: 0,
      hits: { 'f0-dependency-fabricated-success': 3 },
      verdict: 'fail', // lost_effects == 0 fails
    });
    expect(report.thresholds.find((t) => t.metric === 'lost_effects')).toMatchObject({ actual: 3, ok: false });
  });
});
