// A non-JSON line on the way to the client's reader (a stray console.log on the server's stdout): before the
// answer (the reader reports it on onerror and parses on) or instead of it (the answer is lost).
import { z } from 'zod';
import { defineStdioFault } from './define.ts';

export const stdioMalformedLine = defineStdioFault({
  kind: 'stdio-malformed-line',
  directive: 'malformed-line',
  summary: 'a non-JSON line on the stdio server stdout, before or instead of the answer',
  covers: ['protocol'],
  params: {
    mode: z.enum(['before', 'instead']).default('before').describe('before the answer, or instead of it'),
    text: z.string().min(1).default('debug: cache warmed in 12ms').describe('the line (newlines become spaces)'),
  },
  async answer(message, d, out) {
    await out.write(`${d.text.replace(/\n/g, ' ')}\n`);
    if (d.mode === 'before') await out.send(message);
  },
});
