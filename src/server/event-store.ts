// Our own EventStore for resumable Streamable HTTP. Ids come from a monotonic counter (never from the clock), the
// stream of an id is looked up in a map (never parsed out of the id, which broke the SDK example for the
// standalone `_GET_stream`), and getStreamIdForEventId is implemented so the transport can check for conflicts.
// One store per session, and one budget of events for all the sessions of a server: beyond it the oldest event of
// any session is evicted. A bound per session alone grows with the sessions: 64 workers each allowed 10,000 events
// kept every answer of a 100,000-op run in the server (two events an op, about 2 KB each), its largest live set.
// An event is kept as the JSON text it is sent as, not the message object, and with a flat copy of its stream id
// (the SDK's come from crypto.randomUUID, a string that is a tree of about twenty concatenations, some 600 bytes).
// Heap snapshots of the loaded server child, the budget full: 8.6 MB before (2.2 MB of it stream ids), 7.25 MB as
// text (2.75 MB of it stream ids); every MB live lets V8 grow the old generation by a few before its next full
// collection. Priming events keep no text (there is nothing to replay).
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface StoredEvent {
  seq: number;
  streamId: StreamId;
  /** The message as JSON; undefined for a priming event (an empty message). */
  text: string | undefined;
}

/** The events of the stores that share it, oldest first; beyond `maxEvents` in all, the oldest is evicted. */
export class EventBudget {
  private seq = 0;
  /** Each held event's store, by number: insertion order is age. */
  private readonly held = new Map<number, CountingEventStore>();

  constructor(readonly maxEvents = 10_000) {}

  /** A new event's number (monotonic across the stores), after evicting what the budget no longer holds. */
  take(store: CountingEventStore): number {
    const seq = ++this.seq;
    this.held.set(seq, store);
    for (const [oldest, owner] of this.held) {
      if (this.held.size <= this.maxEvents) break;
      this.held.delete(oldest);
      owner.evict(oldest);
    }
    return seq;
  }
}

export class CountingEventStore implements EventStore {
  // Map iteration order is insertion order, which is seq order.
  private readonly events = new Map<EventId, StoredEvent>();

  /** Alone, a store has a budget of its own; a server's sessions share one. */
  constructor(private readonly budget = new EventBudget()) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = this.budget.take(this);
    const id = String(seq);
    this.events.set(id, {
      seq,
      streamId: flatCopy(streamId),
      text: 'jsonrpc' in message ? JSON.stringify(message) : undefined,
    });
    return id;
  }

  evict(seq: number): void {
    this.events.delete(String(seq));
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.events.get(lastEventId);
    if (!last) throw new Error('unknown event id');
    for (const [id, event] of this.events) {
      if (event.seq <= last.seq || event.streamId !== last.streamId) continue;
      if (event.text === undefined) continue;
      await send(id, JSON.parse(event.text) as JSONRPCMessage);
    }
    return last.streamId;
  }

  get size(): number {
    return this.events.size;
  }
}

/** The string as one flat string (Array.join copies its pieces into one; a concatenation tree stays a tree). */
const flatCopy = (s: string): string => s.split('-').join('-');
