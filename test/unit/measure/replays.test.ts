// Replay metrics from a hand-built history: unsafe replays and the second effects they made, ops indeterminate
// with an effect, lying hints (with their honest negative control), and n/a where effects cannot be seen.
import { describe, expect, it } from 'vitest';
import { METRICS } from '../../../src/measure/metric-table.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { effect, history, op } from './fixtures.ts';

const pay = { sideEffecting: true, tool: 'pay' };
const claimsIdempotent = { hints: { idempotentHint: true } };

function h(effectsObservable = true) {
  return history({
    effectsObservable,
    ops: [
      // Two unsafe replays, one second effect.
      op('naive', 0, 10, 'ok', { ...pay, attempts: 3, retries: 2, replaysAfterUnknown: 2, unsafeReplays: 2 }),
      // A safe replay after unknown (its key honoured): its single effect is no duplicate.
      op('keyed', 0, 10, 'ok', { ...pay, attempts: 2, retries: 1, replaysAfterUnknown: 1 }),
      // Ended indeterminate while its effect happened.
      op('unsure', 0, 10, 'info', pay),
      // Claims idempotentHint, sent the same arguments twice, made two effects: a lie.
      op('liar', 0, 10, 'ok', { ...pay, tool: 'put', attempts: 2, identicalCalls: 2, retries: 1, ...claimsIdempotent }),
      // Claims idempotentHint, sent the same arguments twice, made one effect: honest.
      op('honest', 0, 10, 'ok', {
        ...pay,
        tool: 'set',
        attempts: 2,
        identicalCalls: 2,
        retries: 1,
        ...claimsIdempotent,
      }),
      // Claims readOnlyHint and made an effect.
      op('reader', 0, 10, 'ok', { tool: 'peek', hints: { readOnlyHint: true }, identicalCalls: 1 }),
    ],
    effects: [
      effect('naive'),
      effect('naive'),
      effect('keyed'),
      effect('unsure'),
      effect('liar'),
      effect('liar'),
      effect('honest'),
      effect('reader'),
    ],
  });
}

const metric = (name: string, effectsObservable = true) => METRICS[name].get(computeMetrics(h(effectsObservable)));

describe('replay metrics', () => {
  it('counts retries, replays after unknown and unsafe replays from the op records', () => {
    const m = computeMetrics(h());
    expect([m.retries, m.replaysAfterUnknown, m.unsafeReplays]).toEqual([5, 3, 2]);
  });

  it('an unsafe replay counts as a duplicate only where the ledger shows a second effect, at most one each', () => {
    expect(metric('unsafe_replay_duplicates').value).toBe(1);
  });

  it('indeterminate_effects: info ops whose effect exists', () => {
    expect(metric('indeterminate_effects').value).toBe(1);
  });

  it('lying_hints names the tools the effects contradict; the honest idempotent tool is not one', () => {
    const m = computeMetrics(h());
    expect(m.lyingHints).toBe(2);
    expect(m.lyingHintTools?.map((l) => [l.tool, l.hint, l.ops])).toEqual([
      ['put', 'idempotentHint', ['liar']],
      ['peek', 'readOnlyHint', ['reader']],
    ]);
  });

  it("lists a lying tool's ops by start whatever order they ended in, each with its own outcome and calls", () => {
    const peek = { tool: 'peek', hints: { readOnlyHint: true } };
    const put = { ...pay, tool: 'put', attempts: 2, identicalCalls: 2, ...claimsIdempotent };
    const m = computeMetrics(
      history({
        ops: [
          op('late', 30, 40, 'ok', peek),
          op('put-2', 25, 35, 'ok', put),
          op('mid', 20, 22, 'fail', peek),
          op('put-1', 15, 30, 'fail', { ...put, identicalCalls: 1 }),
          op('early-b', 10, 50, 'info', peek),
          op('early-a', 10, 12, 'ok', peek),
          op('quiet', 5, 6, 'ok', peek),
        ],
        effects: ['late', 'put-2', 'put-2', 'mid', 'put-1', 'put-1', 'early-b', 'early-a'].map((id) => effect(id)),
      }),
    );
    // put-1 made two effects from one identical call: no idempotentHint lie; quiet made none.
    expect(m.lyingHintTools?.map((l) => [l.tool, l.hint, l.ops])).toEqual([
      ['peek', 'readOnlyHint', ['early-a', 'early-b', 'mid', 'late']],
      ['put', 'idempotentHint', ['put-2']],
    ]);
  });

  it('names every lying op by its own id past the columns growing, in the workload spelling or any other', () => {
    const peek = { tool: 'peek', hints: { readOnlyHint: true } };
    // 3,000 read-only ops, each a lie: workload ids (op-00000 ... op-02999, over the 1,024 rows first kept) and
    // ids in other spellings (a user client's, a number too large, a padded one that is not the workload's).
    const ids = [
      ...Array.from({ length: 3000 }, (_, i) => `op-${String(i).padStart(5, '0')}`),
      'mine-1',
      'op-7',
      'op-000012',
      'op-99999999999',
    ];
    const m = computeMetrics(
      history({ ops: ids.map((id, i) => op(id, i, i + 1, 'ok', peek)), effects: ids.map((id) => effect(id)) }),
    );
    expect(m.lyingHintTools?.map((l) => l.ops)).toEqual([ids]);
  });

  it('every effect-judged count is n/a, not 0, where effects cannot be seen; client counts stay', () => {
    for (const name of ['unsafe_replay_duplicates', 'indeterminate_effects', 'lying_hints']) {
      expect(metric(name, false)).toMatchObject({ value: null, na: true, unmeasurable: true });
    }
    expect(metric('unsafe_replays', false).value).toBe(2);
  });
});

describe('a report written before replay accounting', () => {
  it('reads n/a for every replay metric, never 0', () => {
    const old = computeMetrics(h());
    for (const k of [
      'retries',
      'replaysAfterUnknown',
      'unsafeReplays',
      'unsafeReplayDuplicates',
      'indeterminateEffects',
      'lyingHints',
    ] as const)
      delete old[k];
    for (const name of [
      'retries',
      'replays_after_unknown',
      'unsafe_replays',
      'unsafe_replay_duplicates',
      'indeterminate_effects',
      'lying_hints',
    ])
      expect(METRICS[name].get(old)).toMatchObject({ value: null, na: true });
  });
});
