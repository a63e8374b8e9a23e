// The client's subscriptions/listen loop (2026-07-28): one stream kept open beside the workload, on a connection of
// its own. SDK 2.4 does not listen again when a stream ends ("No automatic re-listen"), and the wire has no replay
// of what was announced while no stream was open. A policy may listen again, with a bounded storm (growing pauses,
// a cap), and catch up by reading the resource once the new stream is acknowledged.
import { epochMs } from '../core/clock.ts';
import type { SubscriptionEvent } from '../core/history.ts';
import { CHARGE_KEY_META } from '../core/wire.ts';

export interface ListenPolicy {
  /** Listen again after a stream ended: at most `max` times, pausing `backoffMs` doubled per try up to `maxMs`. */
  relisten?: { max: number; backoffMs: number; maxMs: number };
  /** After listening again, read each resource and note every key it lists (what the gap lost is caught up). */
  catchUp?: boolean;
}

/** What the loop needs of SDK 2.4's Client (sdk2-client.ts hands it over). */
export interface ListenClient {
  listen(
    filter: { resourceSubscriptions: string[] },
    options: { signal: AbortSignal },
  ): Promise<{ closed: Promise<'local' | 'graceful' | 'remote'>; close(): Promise<void> }>;
  readResource(params: { uri: string }): Promise<{ contents: object[] }>;
}

type OnUpdated = (params: { uri: string; _meta?: Record<string, unknown> }) => void;

export interface Listener {
  /** Resolves once the first listen was acknowledged or refused (the workload starts after it). */
  ready: Promise<void>;
  /** Ends the loop and its connection; the events it recorded. */
  stop(): Promise<SubscriptionEvent[]>;
}

export function startListener(
  open: (onUpdated: OnUpdated) => Promise<{ sdk: ListenClient; close(): Promise<void> }>,
  resources: readonly string[],
  policy: ListenPolicy,
): Listener {
  const events: SubscriptionEvent[] = [];
  const note = (event: Omit<SubscriptionEvent, 'atMs'>) => events.push({ atMs: epochMs(), ...event });
  const stopping = new AbortController();
  const stopped = new Promise<'stopped'>((resolve) =>
    stopping.signal.addEventListener('abort', () => resolve('stopped')),
  );
  let readyNow!: () => void;
  const ready = new Promise<void>((resolve) => {
    readyNow = resolve;
  });
  const onUpdated: OnUpdated = (params) => {
    const key = params._meta?.[CHARGE_KEY_META];
    note({ kind: 'announced', ...(typeof key === 'string' && { key }) });
  };

  const loop = async () => {
    let connection: { sdk: ListenClient; close(): Promise<void> } | undefined;
    for (let tries = 0; !stopping.signal.aborted; tries++) {
      try {
        connection ??= await open(onUpdated);
        const subscription = await connection.sdk.listen(
          { resourceSubscriptions: [...resources] },
          { signal: stopping.signal },
        );
        note({ kind: 'listening' });
        readyNow();
        if (tries > 0 && policy.catchUp) await catchUp(connection.sdk);
        const how = await Promise.race([subscription.closed, stopped]);
        if (how === 'stopped') await subscription.close().catch(() => {});
        else note({ kind: 'closed', reason: how });
      } catch (error) {
        if (stopping.signal.aborted) break;
        note({ kind: 'listen-failed', reason: String((error as Error)?.message ?? error).slice(0, 200) });
        readyNow();
        await connection?.close().catch(() => {});
        connection = undefined;
      }
      const again = policy.relisten;
      if (stopping.signal.aborted || !again || tries >= again.max) break;
      await Promise.race([stopped, pause(Math.min(again.maxMs, again.backoffMs * 2 ** Math.min(tries, 16)))]);
    }
    readyNow();
    await connection?.close().catch(() => {});
  };

  const catchUp = async (sdk: ListenClient) => {
    for (const uri of resources) {
      const read = await sdk.readResource({ uri });
      const text = (read.contents.find((c) => 'text' in c) as { text?: unknown } | undefined)?.text;
      const keys = (JSON.parse(typeof text === 'string' ? text : '{}') as { keys?: unknown }).keys;
      if (Array.isArray(keys)) note({ kind: 'caught-up', keys: keys.filter((k) => typeof k === 'string') });
    }
  };

  const running = loop();
  return {
    ready,
    async stop() {
      stopping.abort();
      await running;
      return events;
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
