// The answer written to stdout in `chunkBytes` pieces, `delayMs` apart: the client's reader must reassemble
// partial lines, and latency grows with the answer's size.
import { z } from 'zod';
import { sleep } from '../../../core/sleep.ts';
import { defineStdioFault } from './define.ts';

export const stdioSlowWrites = defineStdioFault({
  kind: 'stdio-slow-writes',
  directive: 'slow-write',
  summary: 'the answer written to stdout in small chunks with a delay between them',
  covers: ['timeout'],
  params: {
    chunkBytes: z.number().int().positive().default(64).describe('size of each piece, bytes'),
    delayMs: z.number().int().nonnegative().max(10_000).default(20).describe('pause between pieces, ms'),
  },
  async answer(message, d, out) {
    const line = `${JSON.stringify(message)}\n`;
    for (let at = 0; at < line.length; at += d.chunkBytes) {
      if (at > 0) await sleep(d.delayMs);
      await out.write(line.slice(at, at + d.chunkBytes));
    }
  },
});
