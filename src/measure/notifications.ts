// What a subscriptions/listen stream told the client about the charges made while it listened: each charge
// announced once (delivered), more than once (duplicated), never (lost), and whether the client learned of a lost
// one anyway by reading the resource after listening again (missed: neither). Counted from the first acknowledged
// listen on; n/a when nobody listened, no listen was acknowledged, or no charge was made after it.
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
  const events = run.subscriptions;
  const firstListen = events?.find((e) => e.kind === 'listening');
  if (!events || !firstListen) return {};
  const charges = run.effects.filter(
    (e) => e.kind === 'payment.charge' && e.idempotencyKey !== undefined && e.atMs >= firstListen.atMs,
  );
  if (charges.length === 0) return {};
  const announced = new Map<string, number>();
  const caughtUp = new Set<string>();
  for (const e of events) {
    if (e.kind === 'announced' && e.key !== undefined) announced.set(e.key, (announced.get(e.key) ?? 0) + 1);
    for (const key of e.kind === 'caught-up' ? (e.keys ?? []) : []) caughtUp.add(key);
  }
  const keys = charges.map((c) => c.idempotencyKey as string);
  const lost = keys.filter((k) => !announced.has(k));
  return {
    notificationsDelivered: keys.length - lost.length,
    notificationsDuplicated: keys.reduce((n, k) => n + Math.max(0, (announced.get(k) ?? 0) - 1), 0),
    notificationsLost: lost.length,
    changesMissed: lost.filter((k) => !caughtUp.has(k)).length,
    relistens: events.filter((e) => e.kind === 'listening').length - 1,
  };
}
