// One toxic's place in one link: an input queue, an output, and the interrupt protocol of Toxiproxy's
// ToxicStub (toxics/toxic.go). A toxic's pipe is an async loop that reads, waits and writes; interrupting it
// wakes any pending read or sleep so the pipe can hand over its in-flight chunk and return.
import type { RandomStream } from '../core/random.ts';
import { now, scheduleAt } from './timing.ts';

export interface Chunk {
  data: Buffer;
  /** performance.now() when the chunk was read from the socket, moved forward by latency toxics. */
  ts: number;
}

/** null is end of stream. */
export type Output = (chunk: Chunk | null) => void;

export const INTERRUPTED = Symbol('interrupted');
export const TIMED_OUT = Symbol('timed out');
export type ReadResult = Chunk | null | typeof INTERRUPTED | typeof TIMED_OUT;

/** Byte accounting of the link, so a slow toxic pushes back on the source socket. */
export interface QueueAccounting {
  queued: number;
  dequeued(bytes: number): void;
}

export interface PipeRunner {
  pipe(stub: ToxicStub): Promise<void>;
}

export class ToxicStub {
  output: Output = () => {};
  /** Per-connection state of stateful toxics (limit_data), kept across re-runs. */
  state: unknown;
  closed = false;
  private readonly queue: Chunk[] = [];
  private eof = false;
  private passthrough = true;
  private interruptRequested = false;
  private aborted = false;
  private running: Promise<void> | undefined;
  private pendingRead: ((result: ReadResult) => void) | undefined;
  private pendingSleep: { resolve: (elapsed: boolean) => void; uninterruptible: boolean } | undefined;
  private cancelTimer: (() => void) | undefined;

  constructor(
    private readonly accounting: QueueAccounting,
    /** Draws of this toxic on this link (toxicity, jitter, slice sizes); absent for the hidden noop. */
    readonly random?: RandomStream,
    private readonly onHit: () => void = () => {},
  ) {}

  /** The toxic acted on this link once (it delayed, dropped or sliced a chunk, or cut the connection). */
  hit(): void {
    this.onHit();
  }

  get isInterrupted(): boolean {
    return this.interruptRequested || this.aborted;
  }

  /** Input side: called by the previous stub or by the socket reader. */
  push(chunk: Chunk | null): void {
    if (this.closed) return;
    if (this.passthrough) {
      if (chunk) this.output(chunk);
      else this.close();
      return;
    }
    if (chunk === null) this.eof = true;
    else {
      this.queue.push(chunk);
      this.accounting.queued += chunk.data.length;
    }
    if (this.pendingRead) this.settleRead(this.dequeue()!);
  }

  /** Next chunk, null at end of stream, INTERRUPTED, or TIMED_OUT after `timeoutMs` without input. */
  read(timeoutMs?: number): ReadResult | Promise<ReadResult> {
    if (this.isInterrupted) return INTERRUPTED;
    const next = this.dequeue();
    if (next !== undefined) return next;
    return new Promise<ReadResult>((resolve) => {
      this.pendingRead = resolve;
      if (timeoutMs !== undefined) this.cancelTimer = scheduleAt(now() + timeoutMs, () => this.settleRead(TIMED_OUT));
    });
  }

  /** Waits `ms`; false when interrupted first. Uninterruptible sleeps end early only when the link is torn down. */
  sleep(ms: number, uninterruptible = false): boolean | Promise<boolean> {
    if (this.aborted || (this.interruptRequested && !uninterruptible)) return false;
    if (ms <= 0) return true;
    return new Promise<boolean>((resolve) => {
      this.pendingSleep = { resolve, uninterruptible };
      this.cancelTimer = scheduleAt(now() + ms, () => this.settleSleep(true));
    });
  }

  write(chunk: Chunk): void {
    if (!this.closed) this.output(chunk);
  }

  /** Ends this stub's output: everything after it sees end of stream. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.dropQueue();
    this.output(null);
  }

  /** Starts (or restarts) the stub: draws toxicity for this run, as Toxiproxy's ToxicStub.Run does. */
  run(toxic: PipeRunner | undefined): void {
    if (this.closed || this.aborted) return;
    if (!toxic) {
      this.passthrough = true;
      for (let next = this.dequeue(); next !== undefined; next = this.dequeue()) {
        if (next === null) {
          this.close();
          return;
        }
        this.output(next);
      }
      return;
    }
    this.passthrough = false;
    const running: Promise<void> = toxic
      .pipe(this)
      .catch(() => this.close())
      .finally(() => {
        if (this.running === running) this.running = undefined;
      });
    this.running = running;
  }

  /** Stops the running pipe. False when the stub had already closed (Toxiproxy's InterruptToxic). */
  async interrupt(): Promise<boolean> {
    if (this.closed) return false;
    if (!this.running) {
      // A passthrough stub holds nothing; it queues input until it runs again.
      this.passthrough = false;
      return true;
    }
    this.interruptRequested = true;
    if (this.pendingRead) this.settleRead(INTERRUPTED);
    if (this.pendingSleep && !this.pendingSleep.uninterruptible) this.settleSleep(false);
    await this.running;
    this.interruptRequested = false;
    return !this.closed;
  }

  /** Hands over queued input (used when this stub is removed from the chain). */
  takeQueued(): { chunks: Chunk[]; eof: boolean } {
    const chunks = this.queue.splice(0);
    for (const chunk of chunks) this.accounting.dequeued(chunk.data.length);
    return { chunks, eof: this.eof };
  }

  /** Link teardown: drop everything, end every wait, never output again. */
  abort(): void {
    this.aborted = true;
    this.closed = true;
    this.dropQueue();
    if (this.pendingRead) this.settleRead(INTERRUPTED);
    if (this.pendingSleep) this.settleSleep(false);
  }

  private dequeue(): Chunk | null | undefined {
    const chunk = this.queue.shift();
    if (chunk) {
      this.accounting.dequeued(chunk.data.length);
      return chunk;
    }
    return this.eof ? null : undefined;
  }

  private dropQueue(): void {
    if (this.queue.length > 0) this.takeQueued();
  }

  private settleRead(result: ReadResult): void {
    const resolve = this.pendingRead;
    this.pendingRead = undefined;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    resolve?.(result);
  }

  private settleSleep(elapsed: boolean): void {
    const sleep = this.pendingSleep;
    this.pendingSleep = undefined;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    sleep?.resolve(elapsed);
  }
}
