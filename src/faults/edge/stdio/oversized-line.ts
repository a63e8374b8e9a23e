// The answer padded to at least `bytes` on one line to the client: past the reader's framing limit (10 MiB in
// the SDK) it closes the transport and kills the child; the effect may exist, the client must reconnect.
import { isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineStdioFault } from './define.ts';

export const stdioOversizedLine = defineStdioFault({
  kind: 'stdio-oversized-line',
  directive: 'oversized-line',
  summary: 'the answer on one stdout line of at least `bytes` (past 10 MiB the client closes the transport)',
  covers: ['protocol'],
  params: {
    bytes: z
      .number()
      .int()
      .positive()
      .max(256 * 1024 * 1024)
      .default(11 * 1024 * 1024)
      .describe("length of the answer's line, bytes (default 11 MiB: past the SDK's 10 MiB stdio limit)"),
  },
  async answer(message, d, out) {
    await out.send(padded(message, d.bytes));
  },
});

/** The answer padded (in result._meta) so its line is at least `bytes` long. */
function padded(message: JSONRPCMessage, bytes: number): JSONRPCMessage {
  const size = JSON.stringify(message).length + 1;
  if (size >= bytes || !isJSONRPCResultResponse(message)) return message;
  const filler = 'x'.repeat(bytes - size + 64);
  return { ...message, result: { ...message.result, _meta: { ...message.result._meta, 'faultline/padding': filler } } };
}
