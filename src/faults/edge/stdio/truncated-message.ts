// The answer cut short: only its first `keep` share of bytes reaches the client, then the line ends. The reader
// cannot parse it (onerror) and the answer is lost, although the tool ran.
import { z } from 'zod';
import { defineStdioFault } from './define.ts';

export const stdioTruncatedMessage = defineStdioFault({
  kind: 'stdio-truncated-message',
  directive: 'truncate',
  summary: "the answer's line cut short (its first `keep` share of bytes, then a newline): unparseable, lost",
  covers: ['protocol'],
  params: {
    keep: z.number().gt(0).lt(1).default(0.5).describe("share of the answer's bytes that arrive, 0..1 exclusive"),
  },
  async answer(message, d, out) {
    const line = JSON.stringify(message);
    await out.write(`${line.slice(0, Math.max(1, Math.floor(line.length * d.keep)))}\n`);
  },
});
