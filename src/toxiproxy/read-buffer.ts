// Reads a socket into one buffer reused from read to read (net's `onread`), instead of the fresh Buffer a socket
// stream allocates for every read: about half the proxy's CPU per MB on the no-toxic path, which writes each read
// straight out. A write the kernel takes at once leaves nothing pointing at the buffer; when the consumer still
// references it after a read (its write was queued, or a toxic holds the chunk), the next read goes to a fresh
// buffer. The buffer starts small and doubles after a read that fills it: an MCP link moves messages of a few KiB,
// and 64 links each holding (and, when a write queues, re-allocating) the largest buffer cost the harness tens of MB.

/** The first buffer's size, and the most bytes per read (a socket stream reads at most 64 KiB). */
const FIRST_READ_BYTES = 16 * 1024;
const MAX_READ_BYTES = 256 * 1024;

/** Gets each read; answers true when something still references `data` after it returns. */
export type ReadConsumer = (data: Buffer) => boolean;

export class ReusedReadBuffer {
  /** Set before the socket's first read: the socket connects first, and reads only after its 'connect' handlers. */
  consumer: ReadConsumer = () => {
    throw new Error('read before the link was attached');
  };
  private buffer = Buffer.allocUnsafe(FIRST_READ_BYTES);
  /** The next read needs a fresh buffer: the last one is still referenced, or was too small. */
  private fresh = false;

  /** The size of the buffer the next read goes to. */
  get size(): number {
    return this.fresh ? this.nextSize : this.buffer.byteLength;
  }

  private nextSize = FIRST_READ_BYTES;

  /** The socket's `onread` option. Node asks for the buffer of the next read after each callback. */
  readonly onread = {
    buffer: (): Buffer => {
      if (this.fresh) {
        this.fresh = false;
        this.buffer = Buffer.allocUnsafe(this.nextSize);
      }
      return this.buffer;
    },
    /** True: keep reading (the link pauses the socket itself when the destination pushes back). */
    callback: (bytes: number, buffer: Uint8Array): boolean => {
      const full = bytes === buffer.byteLength && this.nextSize < MAX_READ_BYTES;
      if (full) this.nextSize *= 2;
      this.fresh = this.consumer((buffer as Buffer).subarray(0, bytes)) || full;
      return true;
    },
  };
}

/** Whether a read fills at least half of its buffer: keeping it wastes at most as much as it holds. */
export function mostlyFull(data: Buffer): boolean {
  return data.byteLength * 2 >= data.buffer.byteLength;
}
