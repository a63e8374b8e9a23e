// Notification metrics of a profile split by ops: every shard listened on its own stream, and the merge must judge
// each stream on the charges of the ops its own shard ran (announced once: delivered; never: lost), whether each
// shard had a server of its own or all shared one (there every stream also announces the other shards' charges).
import { describe, expect, it } from 'vitest';
import type { History, SubscriptionEvent } from '../../../src/core/history.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { mergeHistories } from '../../../src/measure/merge.ts';
import { METRICS } from '../../../src/measure/metric-table.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { history, op, T0 } from './fixtures.ts';

const NAMES = [
  'notifications_delivered',
  'notifications_duplicated',
  'notifications_lost',
  'changes_missed',
  'relistens',
] as const;
const counts = (h: History) => {
  const m = computeMetrics(h);
  return Object.fromEntries(NAMES.map((n) => [n, METRICS[n].get(m).value]));
};

const opId = (i: number) => `op-${String(i).padStart(5, '0')}`;
const key = (i: number) => `idem-${opId(i)}`;
const charge = (i: number, start: number): Effect => ({
  seq: i + 1,
  atMs: start + 100 + i * 10,
  kind: 'payment.charge',
  traceId: opId(i),
  idempotencyKey: key(i),
});
const at = (start: number, ms: number, e: Omit<SubscriptionEvent, 'atMs'>): SubscriptionEvent => ({
  atMs: start + ms,
  ...e,
});
const announced = (start: number, keys: number[]) =>
  keys.map((i) => at(start, 100 + i * 10 + 1, { kind: 'announced', key: key(i) }));

/**
 * Shard `index` of 2 (own start `start`): it ran the even or odd ops of 0..7 and listened from its start; `heard`:
 * the op indices its stream announced. Its effects are its own charges either way: a shard on a shared server keeps
 * its own out of the shared ledger (run/trace-key.ts ownEffects), though its stream announces every shard's.
 */
function shardPart(index: 1 | 2, start: number, heard: number[]): History {
  const mine = [0, 1, 2, 3, 4, 5, 6, 7].filter((i) => i % 2 === index - 1);
  return history({
    startMs: start,
    endMs: start + 1000,
    ops: mine.map((i) => ({
      ...op(opId(i), start - T0 + 100 + i * 10 - 5, start - T0 + 100 + i * 10 + 5),
      tool: 'create_payment',
      sideEffecting: true,
    })),
    effects: mine.map((i) => charge(i, start)),
    subscriptions: [at(start, 0, { kind: 'listening' }), ...announced(start, heard)],
  });
}

/** The single run: one stream heard `heard` of the 8 charges. */
function single(heard: number[]): History {
  const all = [0, 1, 2, 3, 4, 5, 6, 7];
  return history({
    ops: all.map((i) => ({
      ...op(opId(i), 100 + i * 10 - 5, 100 + i * 10 + 5),
      tool: 'create_payment',
      sideEffecting: true,
    })),
    effects: all.map((i) => charge(i, T0)),
    subscriptions: [at(T0, 0, { kind: 'listening' }), ...announced(T0, heard)],
  });
}

describe('notification metrics through a merge of op shards', () => {
  it('each shard on its own server: the merge counts what the single run counts', () => {
    const parts = [shardPart(1, T0, [0, 2, 4, 6]), shardPart(2, T0 + 5000, [1, 3, 5, 7])];
    const merged = mergeHistories('listen', parts);
    expect(counts(merged)).toEqual(counts(single([0, 1, 2, 3, 4, 5, 6, 7])));
    expect(counts(merged)).toMatchObject({ notifications_delivered: 8, notifications_lost: 0, relistens: 0 });
  });

  it('one shared server (every stream announces every charge): each charge counted once, never duplicated', () => {
    const every = [0, 1, 2, 3, 4, 5, 6, 7];
    const merged = mergeHistories('listen', [shardPart(1, T0, every), shardPart(2, T0 + 5000, every)]);
    expect(counts(merged)).toEqual(counts(single(every)));
    expect(counts(merged)).toMatchObject({ notifications_delivered: 8, notifications_duplicated: 0 });
  });

  it("negative control: a shard's stream that lost its own charges counts them lost, though another stream heard them", () => {
    // Shared server: shard 1's stream heard all 8; shard 2's stream heard only op 1 of its own 1, 3, 5, 7.
    const every = [0, 1, 2, 3, 4, 5, 6, 7];
    const merged = mergeHistories('listen', [shardPart(1, T0, every), shardPart(2, T0 + 5000, [0, 1, 2, 4, 6])]);
    expect(counts(merged)).toMatchObject({
      notifications_delivered: 5,
      notifications_lost: 3,
      changes_missed: 3,
      notifications_duplicated: 0,
    });
  });

  it('a relisten is counted per stream: two streams that each listened once made no relisten', () => {
    const relisten = shardPart(2, T0 + 5000, [1, 3, 5, 7]);
    relisten.subscriptions!.push(
      at(T0 + 5000, 200, { kind: 'closed', reason: 'remote' }),
      at(T0 + 5000, 210, { kind: 'listening' }),
    );
    relisten.subscriptions!.sort((a, b) => a.atMs - b.atMs);
    const merged = mergeHistories('listen', [shardPart(1, T0, [0, 2, 4, 6]), relisten]);
    expect(counts(merged)).toMatchObject({ relistens: 1, notifications_delivered: 8 });
  });
});
