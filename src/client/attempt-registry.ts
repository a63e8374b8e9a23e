// Which attempt an HTTP request of one connection belongs to, found from the request itself: a tools/call (and the
// task polls and input rounds of it) carries its trace id and attempt number in `_meta`; the SDK resumes a broken
// stream with a GET naming the last event id the attempt's stream carried; a request made outside any attempt (a
// connect's initialize, a contract's call) has the connection to itself while it runs. One registry per connection:
// op ids, attempt numbers and event ids are unique within a session, not across the sessions of a process.
import { traceOfBody } from '../core/logical-key.ts';
import type { AttemptHttp } from './attempt-http.ts';

export class AttemptRegistry {
  private readonly traced = new Map<string, AttemptHttp>();
  /** The last event id each attempt's streams carried, both ways: the SDK resumes from it. */
  private readonly byEventId = new Map<string, AttemptHttp>();
  private readonly eventIdOf = new Map<AttemptHttp, string>();
  private untraced: AttemptHttp | undefined;
  /** The attempt whose stream error the SDK has just put into words (watched-stream.ts), with those words. */
  private broken: { http: AttemptHttp; text: string } | undefined;

  /** `fn`, during which requests carrying `trace` and `attempt` are attempt `http`'s. */
  async during<T>(trace: string, attempt: number, http: AttemptHttp, fn: () => Promise<T>): Promise<T> {
    const key = `${attempt}:${trace}`;
    this.traced.set(key, http);
    try {
      return await fn();
    } finally {
      if (this.traced.get(key) === http) this.traced.delete(key);
      this.forgetEventId(http);
    }
  }

  /** `fn`, during which requests that carry no trace id (and are not resumptions) are `http`'s. */
  async outside<T>(http: AttemptHttp, fn: () => Promise<T>): Promise<T> {
    const before = this.untraced;
    this.untraced = http;
    try {
      return await fn();
    } finally {
      this.untraced = before;
      this.forgetEventId(http);
    }
  }

  /** The attempt a request belongs to: by the trace its body carries, the event id it resumes from, or neither. */
  of(method: string, body: string | undefined, lastEventId: string | undefined): AttemptHttp | undefined {
    if (lastEventId !== undefined) return this.byEventId.get(lastEventId);
    if (method !== 'POST') return undefined;
    const { trace, attempt } = traceOfBody(body);
    if (trace === undefined || attempt === undefined) return this.untraced;
    return this.traced.get(`${attempt}:${trace}`);
  }

  /** An event of `http`'s stream carried `id`: a resumption from it is the same attempt's. */
  noteEventId(http: AttemptHttp, id: string): void {
    this.forgetEventId(http);
    this.byEventId.set(id, http);
    this.eventIdOf.set(http, id);
  }

  /** The SDK is about to report `http`'s stream error as `SSE stream disconnected: <text>`. */
  streamBroke(http: AttemptHttp, text: string): void {
    this.broken = { http, text };
  }

  /** The attempt whose stream `error` (the client's onerror) reports broken, if it was one of ours. */
  takeBroken(error: Error): AttemptHttp | undefined {
    const broken = this.broken;
    this.broken = undefined;
    return broken && error.message.endsWith(broken.text) ? broken.http : undefined;
  }

  private forgetEventId(http: AttemptHttp): void {
    const id = this.eventIdOf.get(http);
    if (id === undefined) return;
    this.eventIdOf.delete(http);
    if (this.byEventId.get(id) === http) this.byEventId.delete(id);
  }
}
