import { describe, expect, it } from 'vitest';
import type { WorldEvent } from '../../../src/control/events.ts';
import { eventBatcher } from '../../../src/server/control/event-batch.ts';
import type { FromChild } from '../../../src/server/control/ipc.ts';

const hit = (faultId: string): WorldEvent => ({ type: 'hit', faultId });
const nextMacrotask = () => new Promise((resolve) => setImmediate(resolve));

function recording() {
  const posted: FromChild[] = [];
  return { posted, batcher: eventBatcher((message) => posted.push(message)) };
}

describe('eventBatcher', () => {
  it('sends the events pushed together as one message, in order, once the code that pushed them yields', async () => {
    const { posted, batcher } = recording();
    batcher.event(hit('a'));
    batcher.event(hit('b'));
    expect(posted).toEqual([]);
    await Promise.resolve();
    expect(posted).toEqual([{ type: 'events', events: [hit('a'), hit('b')] }]);
    // Pushed after the batch went: the next message.
    batcher.event(hit('c'));
    await nextMacrotask();
    expect(posted).toEqual([{ type: 'events', events: [hit('a'), hit('b')] }, hit('c')]);
  });

  it('sends a lone event as itself, and events of separate turns separately', async () => {
    const { posted, batcher } = recording();
    batcher.event(hit('a'));
    await nextMacrotask();
    batcher.event(hit('b'));
    await nextMacrotask();
    expect(posted).toEqual([hit('a'), hit('b')]);
  });

  it('goes out before work queued after the event: an answer built a few awaits later finds it sent', async () => {
    const { posted, batcher } = recording();
    let seenByAnswer: number | undefined;
    const tool = async () => {
      batcher.event(hit('charge'));
      await Promise.resolve();
      await Promise.resolve();
      seenByAnswer = posted.length;
    };
    await tool();
    expect(seenByAnswer).toBe(1);
  });

  it('flushes queued events before any other message: a response never overtakes an event', () => {
    const { posted, batcher } = recording();
    batcher.event(hit('a'));
    batcher.send({ type: 'response', id: 1, ok: true });
    expect(posted.map((m) => m.type)).toEqual(['hit', 'response']);
  });
});
