// What a listen stream told the client: charges delivered, duplicated, lost, and missed (lost and not caught up by
// a read after listening again). n/a when no listen was acknowledged or no charge followed it.
import { describe, expect, it } from 'vitest';
import type { SubscriptionEvent } from '../../../src/core/history.ts';
import { METRICS } from '../../../src/measure/metric-table.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { effect, history, T0 } from './fixtures.ts';

const at = (ms: number, e: Omit<SubscriptionEvent, 'atMs'>): SubscriptionEvent => ({ atMs: T0 + ms, ...e });
const charge = (key: string, ms: number) => effect(undefined, { kind: 'payment.charge', idempotencyKey: key }, ms);
const value = (h: ReturnType<typeof history>, metric: string) => METRICS[metric].get(computeMetrics(h));
const NAMES = ['notifications_delivered', 'notifications_lost', 'changes_missed', 'relistens'];

describe('listen notifications', () => {
  it('are n/a when nobody listened, when no listen was acknowledged, and when no charge followed', () => {
    const failed = [at(0, { kind: 'listen-failed', reason: 'x' })];
    const early = [at(50, { kind: 'listening' })];
    for (const h of [
      history({ effects: [charge('a', 10)] }),
      history({ effects: [charge('a', 10)], subscriptions: failed }),
      history({ effects: [charge('a', 10)], subscriptions: early }),
    ]) {
      for (const name of NAMES) expect(value(h, name)).toMatchObject({ value: null, na: true });
    }
  });

  it('count delivered, duplicated, lost and missed charges, and listens after the first', () => {
    const h = history({
      effects: [charge('a', 10), charge('b', 20), charge('c', 30), charge('d', 40)],
      subscriptions: [
        at(0, { kind: 'listening' }),
        at(11, { kind: 'announced', key: 'a' }),
        at(12, { kind: 'announced', key: 'a' }),
        at(15, { kind: 'closed', reason: 'remote' }),
        // b and c were announced while no stream was open; the read after listening again lists b only.
        at(35, { kind: 'listening' }),
        at(36, { kind: 'caught-up', keys: ['a', 'b'] }),
        at(41, { kind: 'announced', key: 'd' }),
      ],
    });
    expect(value(h, 'notifications_delivered').value).toBe(2);
    expect(value(h, 'notifications_duplicated').value).toBe(1);
    expect(value(h, 'notifications_lost').value).toBe(2);
    expect(value(h, 'changes_missed').value).toBe(1);
    expect(value(h, 'relistens').value).toBe(1);
  });
});
