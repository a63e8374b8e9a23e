// What a subscriptions/listen stream told the client about the charges made while it listened: each charge
// announced once (delivered), more than once (duplicated), never (lost), and whether the client learned of a lost
// one anyway by reading the resource after listening again (missed: neither). Counted from the first acknowledged
// listen on; n/a when nobody listened, no listen was acknowledged, or no charge was made after it.
// A history merged from op shards holds one stream per shard (measure/merge.ts tags events and charges with their
// shard): each stream is judged on the charges of its own shard's ops only, from its own first listen, and the
// streams' counts are added. On a server the shards share, every stream also announces the other shards' charges;
// those are judged by their own shard's stream, so each charge counts once, as in the unsharded run.
import type { SubscriptionEvent } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import type { RunFrame } from './accumulator.ts';

export interface NotificationMetrics {
  notificationsDelivered: number;
  notificationsDuplicated: number;
  notificationsLost: number;
  /** Lost and not caught up either: changes the client never learned of. */
  changesMissed: number;
  /** Listens acknowledged after the first. */
  relistens: number;
}

export function notificationMetrics(run: RunFrame): Partial<NotificationMetrics> {
  if (!run.subscriptions) return {};
  const streams = byShard(run.subscriptions);
  const announced: Effect[] = [];
  for (const e of run.effects) if (e.kind === 'payment.charge' && e.idempotencyKey !== undefined) announced.push(e);
  const charges = byShard(announced);
  const judged = [...streams].flatMap(([shard, events]) => streamMetrics(events, charges.get(shard) ?? []));
  if (judged.length === 0) return {};
  const sum = (pick: (m: NotificationMetrics) => number) => judged.reduce((n, m) => n + pick(m), 0);
  return {
    notificationsDelivered: sum((m) => m.notificationsDelivered),
    notificationsDuplicated: sum((m) => m.notificationsDuplicated),
    notificationsLost: sum((m) => m.notificationsLost),
    changesMissed: sum((m) => m.changesMissed),
    relistens: sum((m) => m.relistens),
  };
}

/** One stream's counts over the charges it had to announce; none when it never listened or nothing followed. */
function streamMetrics(events: readonly SubscriptionEvent[], expected: readonly Effect[]): NotificationMetrics[] {
  const firstListen = events.find((e) => e.kind === 'listening');
  if (!firstListen) return [];
  const keys = expected.filter((c) => c.atMs >= firstListen.atMs).map((c) => c.idempotencyKey as string);
  if (keys.length === 0) return [];
  const announced = new Map<string, number>();
  const caughtUp = new Set<string>();
  for (const e of events) {
    if (e.kind === 'announced' && e.key !== undefined) announced.set(e.key, (announced.get(e.key) ?? 0) + 1);
    for (const key of e.kind === 'caught-up' ? (e.keys ?? []) : []) caughtUp.add(key);
  }
  const lost = keys.filter((k) => !announced.has(k));
  return [
    {
      notificationsDelivered: keys.length - lost.length,
      notificationsDuplicated: keys.reduce((n, k) => n + Math.max(0, (announced.get(k) ?? 0) - 1), 0),
      notificationsLost: lost.length,
      changesMissed: lost.filter((k) => !caughtUp.has(k)).length,
      relistens: events.filter((e) => e.kind === 'listening').length - 1,
    },
  ];
}

/** Items by their shard (undefined: the run's one stream). Map.groupBy is not in Node 20. */
function byShard<T extends { shard?: number }>(items: readonly T[]): Map<number | undefined, T[]> {
  const groups = new Map<number | undefined, T[]>();
  for (const item of items) {
    const group = groups.get(item.shard);
    if (group) group.push(item);
    else groups.set(item.shard, [item]);
  }
  return groups;
}
