// A recorded session served back as a stdio MCP server (target kind cassette). Usage:
//   node dist/bin/cassette-main.js CASSETTE.jsonl
// Requests are answered from the cassette (cassette/answers.ts says how they match); notifications are taken and
// dropped. A cassette that cannot be read is one line on stderr and exit 2.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { cassetteAnswers } from '../cassette/answers.ts';
import { CassetteError, readCassette } from '../cassette/format.ts';

const file = process.argv[2];
let answers: ReturnType<typeof cassetteAnswers>;
try {
  if (!file) throw new CassetteError('usage: cassette-main CASSETTE.jsonl');
  answers = cassetteAnswers(readCassette(file));
} catch (error) {
  if (!(error instanceof CassetteError)) throw error;
  process.stderr.write(`faultline replay: ${error.message}\n`);
  process.exit(2);
}

const transport = new StdioServerTransport();
transport.onmessage = (message: JSONRPCMessage) => {
  const response = answers.answer(message as Parameters<typeof answers.answer>[0]);
  if (response) void transport.send(response as JSONRPCMessage);
};
transport.onclose = () => process.exit(0);
process.stdin.on('end', () => process.exit(0));
await transport.start();
