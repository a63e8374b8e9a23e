// Our own EventStore for resumable Streamable HTTP. Ids come from a monotonic counter (never from the clock), the
// stream of an id is looked up in a map (never parsed out of the id, which broke the SDK example for the
// standalone `_GET_stream`), and getStreamIdForEventId is implemented so the transport can check for conflicts.
// One store per session; the oldest events are evicted beyond `maxEvents`.
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface StoredEvent {
  seq: number;
  streamId: StreamId;
  message: JSONRPCMessage;
}

export class CountingEventStore implements EventStore {
  private seq = 0;
  // Map iteration order is insertion order, which is seq order.
  private readonly events = new Map<EventId, StoredEvent>();

  constructor(private readonly maxEvents = 10_000) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.seq;
    const id = String(seq);
    this.events.set(id, { seq, streamId, message });
    if (this.events.size > this.maxEvents) {
      const oldest = this.events.keys().next().value;
      if (oldest !== undefined) this.events.delete(oldest);
    }
    return id;
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
      // Priming events carry an empty message: nothing to replay.
      if (!('jsonrpc' in event.message)) continue;
      await send(id, event.message);
    }
    return last.streamId;
  }

  get size(): number {
    return this.events.size;
  }
}
