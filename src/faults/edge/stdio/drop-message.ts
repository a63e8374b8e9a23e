// A message lost on the pipe: the child's answer never reaches the client (the tool ran: its effect exists, the
// attempt times out), or the request never reaches the child (nothing ran).
import { z } from 'zod';
import { defineStdioFault } from './define.ts';

export const stdioDropMessage = defineStdioFault({
  kind: 'stdio-drop-message',
  directive: 'drop',
  summary: 'the answer (or the request) dropped on the pipe between the client and the stdio server',
  covers: ['protocol'],
  params: {
    direction: z
      .enum(['answer', 'request'])
      .default('answer')
      .describe("which message is lost: the server's answer (the tool ran) or the client's request (it did not)"),
  },
  async answer(message, d, out) {
    if (d.direction !== 'answer') await out.send(message);
  },
  async request(message, d, out) {
    if (d.direction !== 'request') await out.send(message);
  },
});
