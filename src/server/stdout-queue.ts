// The reference server's stdout behind a queue that waits for `drain` once at a time. Both SDKs'
// StdioServerTransport.send add a `drain` listener (SDK 2.4 an `error` one too) for every answer written while
// stdout is full, so eleven answers queued behind a slow reader (a loaded harness, a stdio edge fault) print
// MaxListenersExceededWarning into a long run's output. Each answer is buffered in memory either way; here the
// queue holds it and writes the next one when stdout drains. The queue never refuses a write (its high-water mark
// is out of reach), so a send settles at once, as it would with a fast reader; bytes reach stdout in order.
import { Writable } from 'node:stream';

/** Out of reach: a transport's write never sees `false`, so it never waits on this stream. */
const NEVER_FULL = 2 ** 40;

export function queuedStdout(out: NodeJS.WritableStream = process.stdout): Writable {
  const queue = new Writable({
    highWaterMark: NEVER_FULL,
    write(chunk: Buffer, _encoding, callback) {
      if (out.write(chunk)) callback();
      else out.once('drain', () => callback());
    },
  });
  out.on('error', (error: Error) => queue.destroy(error));
  return queue;
}
