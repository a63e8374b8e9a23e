// An HTTP 5xx from the MCP endpoint itself (a real one, from a loopback server that answers every POST with it)
// is filed as the endpoint's failure, EDGE.HTTP_<status>: retryable, and uncertain (a gateway may answer it after
// the server ran the tool). It is not DEPENDENCY.UNAVAILABLE, which is the server saying a dependency failed.
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../../src/client/classify.ts';

let server: Server;
let url: string;
let status = 500;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end('upstream exploded'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failureOf(answer: number): Promise<unknown> {
  status = answer;
  const client = new Client({ name: 'edge-5xx', version: '1' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
  throw new Error(`a ${answer} from the endpoint did not fail the connect`);
}

describe('a 5xx from the MCP endpoint', () => {
  it.each([500, 502, 503])(
    '%i is EDGE.HTTP_<status>: the endpoint failed, retryable, the effect may exist',
    async (code) => {
      const c = classifyError(await failureOf(code));
      expect(c).toMatchObject({ ok: false, category: 'EDGE', errorCode: `EDGE.HTTP_${code}` });
      expect(c).toMatchObject({ retryable: true, uncertain: true });
    },
  );

  it('control: a 4xx from the same endpoint is a refusal, not an edge failure', async () => {
    expect(classifyError(await failureOf(403))).toMatchObject({ category: 'PROTO', errorCode: 'PROTO.HTTP_403' });
  });
});
