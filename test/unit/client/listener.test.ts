// The listen loop: a stream that keeps breaking is listened to again at most `max` times (a bounded storm, never
// a tight loop), each new stream followed by one catch-up read; without a relisten policy (SDK 2.4's own
// behaviour, the naive control) the first break ends it. Announcements are recorded with their charge's key.
import { describe, expect, it } from 'vitest';
import { type ListenClient, startListener } from '../../../src/client/listener.ts';
import { CHARGE_KEY_META } from '../../../src/core/wire.ts';

type OnUpdated = Parameters<Parameters<typeof startListener>[0]>[0];

/** A server whose every listen stream announces `key` once and then breaks (closed: remote). */
function breakingServer() {
  const counts = { listens: 0, reads: 0, opens: 0 };
  const open = async (onUpdated: OnUpdated) => {
    counts.opens++;
    const sdk: ListenClient = {
      async listen() {
        counts.listens++;
        onUpdated({ uri: 'faultline://payments', _meta: { [CHARGE_KEY_META]: `k${counts.listens}` } });
        return { closed: Promise.resolve('remote' as const), close: async () => {} };
      },
      async readResource() {
        counts.reads++;
        return { contents: [{ uri: 'faultline://payments', text: JSON.stringify({ keys: ['k0'] }) }] };
      },
    };
    return { sdk, close: async () => {} };
  };
  return { counts, open };
}

/** Waits until `ready()` holds, checked every 10 ms (a condition, not a timing; gives up after 10 s). */
async function until(ready: () => boolean): Promise<void> {
  for (const end = Date.now() + 10_000; !ready() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
}

describe('listen loop', () => {
  it('listens again at most `max` times after breaks, reading the feed after each new stream', async () => {
    const server = breakingServer();
    const listener = startListener(server.open, ['faultline://payments'], {
      relisten: { max: 3, backoffMs: 1, maxMs: 4 },
      catchUp: true,
    });
    await listener.ready;
    // The last stream's read is the last thing its budget allows (a stream already closed wins over stop()).
    await until(() => server.counts.reads === 3);
    const events = await listener.stop();
    expect(server.counts.listens).toBe(4);
    expect(server.counts.reads).toBe(3);
    expect(server.counts.opens).toBe(1);
    expect(events.filter((e) => e.kind === 'closed').map((e) => e.reason)).toEqual([
      'remote',
      'remote',
      'remote',
      'remote',
    ]);
    expect(events.filter((e) => e.kind === 'announced').map((e) => e.key)).toEqual(['k1', 'k2', 'k3', 'k4']);
    expect(events.filter((e) => e.kind === 'caught-up').map((e) => e.keys)).toEqual([['k0'], ['k0'], ['k0']]);
  });

  it('without a relisten policy the first break ends it, with no read', async () => {
    const server = breakingServer();
    const listener = startListener(server.open, ['faultline://payments'], {});
    await listener.ready;
    await until(() => server.counts.listens === 1);
    const events = await listener.stop();
    expect(server.counts.listens).toBe(1);
    expect(server.counts.reads).toBe(0);
    expect(events.map((e) => e.kind)).toEqual(['announced', 'listening', 'closed']);
  });

  it('a listen that is refused is recorded, and ready resolves anyway', async () => {
    const listener = startListener(
      async () => {
        throw new Error('connect refused');
      },
      ['faultline://payments'],
      {},
    );
    await listener.ready;
    const events = await listener.stop();
    expect(events).toMatchObject([{ kind: 'listen-failed', reason: 'connect refused' }]);
  });
});
