// A report file that grows with the run (report.html, trace.jsonl, history.jsonl), written from its pieces through
// one reused buffer: each piece is encoded straight into it, so no joined text and no fresh buffer is made per batch
// (a long run's trace is hundreds of batches, each of which would otherwise wait in memory for a collection). Taking
// the next piece is where a lazy renderer works (a pass over the run's records): the writer lets the event loop run
// once a slice of such work has gone by, so Ctrl-C and the progress line never wait for a whole long file.
import { open } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { setTimeout as afterTimers } from 'node:timers/promises';

const CHUNK_BYTES = 1 << 20;
/** Work between two turns of the event loop, ms, at most (one piece's own work excepted). */
const SLICE_MS = 50;
/** The most UTF-8 bytes one UTF-16 unit takes (a lone surrogate is written as 3). */
const MAX_UTF8_PER_UNIT = 3;

export interface ChunkOptions {
  chunkBytes?: number;
  sliceMs?: number;
}

/** Writes the pieces in order; a piece that may not fit the buffer is written on its own. Done when it resolves. */
export async function writeChunks(
  path: string,
  pieces: Iterable<string>,
  { chunkBytes = CHUNK_BYTES, sliceMs = SLICE_MS }: ChunkOptions = {},
): Promise<void> {
  const file = await open(path, 'w');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    let used = 0;
    let sliceStart = performance.now();
    const flush = async () => {
      for (let done = 0; done < used; ) done += (await file.write(buffer, done, used - done)).bytesWritten;
      used = 0;
    };
    for (const piece of pieces) {
      const most = piece.length * MAX_UTF8_PER_UNIT;
      if (used + most > chunkBytes) await flush();
      if (most > chunkBytes) await file.writeFile(piece, 'utf8');
      else used += buffer.write(piece, used, 'utf8');
      if (performance.now() - sliceStart >= sliceMs) {
        // A timer, not setImmediate: from an I/O callback an immediate runs before the loop comes back to timers.
        await afterTimers(0);
        sliceStart = performance.now();
      }
    }
    await flush();
  } finally {
    await file.close();
  }
}
