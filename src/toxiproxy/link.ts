// One direction of one connection: source socket -> hidden noop -> toxics in the order added -> dest socket.
// Mirrors Toxiproxy's ToxicLink (link.go), including how toxics are added to, updated on and removed from a
// live link. With no toxic on the direction the chain is skipped: each chunk the source reads is written to the
// destination at once, as pipe() would (no chunk object, no clock read), with the same backpressure.
import type { Socket } from 'node:net';
import type { RandomStream } from '../core/random.ts';
import { mostlyFull, type ReusedReadBuffer } from './read-buffer.ts';
import { type Chunk, type PipeRunner, type QueueAccounting, ToxicStub } from './stub.ts';
import { now } from './timing.ts';
import type { Direction, ToxicModel } from './toxic.ts';

/** Bytes held inside the chain before the source socket is paused. */
const CHAIN_HIGH_WATER = 1 << 20;

export interface LinkHooks {
  /** Stream for one toxic's draws on this link. */
  random(toxicName: string): RandomStream;
  /** The chain delivered end of stream: close the destination socket. */
  finished(link: ToxicLink): void;
}

function runnerFor(toxic: ToxicModel): PipeRunner | undefined {
  const { kind } = toxic;
  if (!kind.pipe) return undefined;
  return { pipe: (stub) => kind.pipe!(stub, toxic.attributes) };
}

export class ToxicLink implements QueueAccounting {
  queued = 0;
  readonly stubs: ToxicStub[];
  /** The toxic behind each stub (index 0 is the hidden noop). */
  private readonly models: (ToxicModel | undefined)[] = [undefined];
  private sourceDone = false;
  private sinkDone = false;
  private paused = false;

  constructor(
    readonly direction: Direction,
    private readonly source: Socket,
    private readonly dest: Socket,
    private readonly hooks: LinkHooks,
    /** Reads the source into one reused buffer, when the source was opened with its `onread`. */
    private readonly reader?: ReusedReadBuffer,
  ) {
    this.stubs = [new ToxicStub(this)];
    this.stubs[0].output = this.sink;
  }

  /** Builds the chain from the proxy's current toxics of this direction and starts reading. */
  start(chain: readonly ToxicModel[]): void {
    for (const toxic of chain) {
      const previous = this.stubs[this.stubs.length - 1];
      const stub = this.appendStub(toxic);
      previous.output = (chunk) => stub.push(chunk);
    }
    for (let i = 1; i < this.stubs.length; i++) this.stubs[i].run(this.draw(this.stubs[i], chain[i - 1]));
    if (this.reader) this.reader.consumer = (data) => this.receive(data, true);
    else this.source.on('data', this.onData);
    this.dest.on('drain', this.maybeResume);
  }

  /** The source ended, failed or was closed by the other link. */
  sourceEnded(): void {
    if (this.sourceDone) return;
    this.sourceDone = true;
    this.source.off('data', this.onData);
    this.stubs[0].push(null);
  }

  /** Toxiproxy's link.AddToxic: the new stub goes last and the previous one restarts (re-drawing toxicity). */
  async addToxic(toxic: ToxicModel): Promise<void> {
    const previous = this.stubs[this.stubs.length - 1];
    const stub = this.appendStub(toxic);
    if (await previous.interrupt()) {
      previous.output = (chunk) => stub.push(chunk);
      stub.run(this.draw(stub, toxic));
      previous.run(this.previousRunner(this.stubs.length - 2));
    } else {
      stub.close();
    }
  }

  async updateToxic(toxic: ToxicModel, index: number): Promise<void> {
    const stub = this.stubs[index];
    if (stub && (await stub.interrupt())) stub.run(this.draw(stub, toxic));
  }

  /** Toxiproxy's link.RemoveToxic: flush what the stub holds forward, or let its cleanup close the link. */
  async removeToxic(toxic: ToxicModel, index: number): Promise<void> {
    const stub = this.stubs[index];
    if (!stub || !(await stub.interrupt())) return;
    if (toxic.kind.cleanup) {
      toxic.kind.cleanup(stub);
      if (stub.closed) return;
    }
    const previous = this.stubs[index - 1];
    await previous.interrupt();
    const { chunks, eof } = stub.takeQueued();
    for (const chunk of chunks) stub.output(chunk);
    if (eof) return stub.close();
    previous.output = stub.output;
    this.stubs.splice(index, 1);
    this.models.splice(index, 1);
    previous.run(this.previousRunner(index - 1));
  }

  /** Teardown: end every toxic's wait so no timer outlives the connection. */
  abort(): void {
    this.sourceEnded();
    for (const stub of this.stubs) stub.abort();
  }

  private appendStub(toxic: ToxicModel): ToxicStub {
    const stub = new ToxicStub(this, this.hooks.random(toxic.name), () => {
      toxic.hits++;
    });
    stub.state = toxic.kind.newState?.();
    stub.output = this.stubs[this.stubs.length - 1].output;
    this.stubs.push(stub);
    this.models.push(toxic);
    return stub;
  }

  private previousRunner(index: number): PipeRunner | undefined {
    const model = this.models[index];
    return model ? this.draw(this.stubs[index], model) : undefined;
  }

  /** Toxicity is drawn per run of a stub: per connection, and again whenever the chain changes around it. */
  private draw(stub: ToxicStub, toxic: ToxicModel): PipeRunner | undefined {
    return stub.random!.chance('toxicity', toxic.toxicity) ? runnerFor(toxic) : undefined;
  }

  dequeued(bytes: number): void {
    this.queued -= bytes;
    if (this.paused) this.maybeResume();
  }

  private readonly onData = (data: Buffer): void => {
    this.receive(data, false);
  };

  /**
   * One read from the source; answers true when `data` is still referenced after return. `reused`: the reader
   * overwrites the buffer with its next read unless told it is still referenced.
   */
  private receive(data: Buffer, reused: boolean): boolean {
    if (this.sourceDone) return false;
    // Only the hidden noop: nothing can hold, delay or reorder the chunk. Adding a toxic appends its stub before
    // any await, so the next chunk already takes the chain (and removing the last one splices it only after the
    // noop has flushed what it queued), so switching paths neither loses nor reorders a byte.
    if (this.stubs.length === 1) return this.write(data);
    // A chunk the chain holds keeps a reused read's bytes: a big read keeps its buffer (the next read gets a
    // fresh one), a small one is copied so it does not pin a mostly empty buffer.
    const keep = !reused || mostlyFull(data);
    this.stubs[0].push({ data: keep ? data : Buffer.from(data), ts: now() });
    if (this.queued > CHAIN_HIGH_WATER && !this.paused) this.pause();
    return reused && keep;
  }

  private readonly sink = (chunk: Chunk | null): void => {
    if (this.sinkDone) return;
    if (chunk === null) {
      this.sinkDone = true;
      this.hooks.finished(this);
      return;
    }
    this.write(chunk.data);
  };

  /** Answers true when the destination queued `data` rather than handing it to the kernel at once. */
  private write(data: Buffer): boolean {
    if (this.dest.destroyed || this.dest.writableEnded || this.sinkDone) return false;
    if (!this.dest.write(data) && !this.paused) this.pause();
    return this.dest.writableLength > 0;
  }

  private pause(): void {
    this.paused = true;
    this.source.pause();
  }

  private readonly maybeResume = (): void => {
    if (!this.paused || this.queued > CHAIN_HIGH_WATER / 2 || this.dest.writableNeedDrain) return;
    this.paused = false;
    if (!this.sourceDone) this.source.resume();
  };
}
