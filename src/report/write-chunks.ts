// A report file that grows with the run (trace.jsonl, history.jsonl), written from its pieces through one reused
// buffer: each piece is encoded straight into it, so no joined text and no fresh buffer is made per batch (a long
// run's trace is hundreds of batches, each of which would otherwise wait in memory for a collection).
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 20;
/** The most UTF-8 bytes one UTF-16 unit takes (a lone surrogate is written as 3). */
const MAX_UTF8_PER_UNIT = 3;

/** Writes the pieces in order; a piece that may not fit the buffer is written on its own. Done when it resolves. */
export async function writeChunks(path: string, pieces: Iterable<string>, chunkBytes = CHUNK_BYTES): Promise<void> {
  const file = await open(path, 'w');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    let used = 0;
    const flush = async () => {
      for (let done = 0; done < used; ) done += (await file.write(buffer, done, used - done)).bytesWritten;
      used = 0;
    };
    for (const piece of pieces) {
      const most = piece.length * MAX_UTF8_PER_UNIT;
      if (used + most > chunkBytes) await flush();
      if (most > chunkBytes) await file.writeFile(piece, 'utf8');
      else used += buffer.write(piece, used, 'utf8');
    }
    await flush();
  } finally {
    await file.close();
  }
}
