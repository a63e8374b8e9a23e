// The one request-body reader (the embedded Toxiproxy API and the admin endpoint): the whole body as text, bounded
// in size (413) and time (408), each refusal answered through the server's own writer. Real HTTP on loopback.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonRpcError, jsonRpcErrorBody } from '../../../src/core/json-rpc.ts';
import { type BodyLimits, readBody } from '../../../src/core/read-body.ts';

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** A server echoing `got <body>`, refusing as `refused <status> <message>`; its port. */
async function echo(limits: BodyLimits): Promise<number> {
  server = createServer(async (req, res) => {
    const text = await readBody(req, res, limits, (r, status, message) =>
      r.writeHead(status).end(`refused ${message}`),
    );
    if (text !== undefined) res.end(`got ${text}`);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends raw bytes (asking the server to close after its answer) and returns all it answered. */
function raw(port: number, head: string, body: string[], gapMs = 20): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('end', () => {
      socket.destroy();
      resolve({ text, ms: performance.now() - started });
    });
    socket.on('error', reject);
    socket.write(head);
    for (const [i, part] of body.entries()) setTimeout(() => socket.write(part), gapMs * (i + 1));
  });
}

describe('readBody', () => {
  it('reads a body that arrives in several chunks', async () => {
    const port = await echo({ maxBytes: 100, timeoutMs: 5000 });
    const answer = await raw(
      port,
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 12\r\n\r\n',
      ['[{"id":', '"a"}]'],
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 200[\s\S]*got \[\{"id":"a"\}\]/);
  });

  it('accepts exactly the limit and refuses one byte more with 413, by Content-Length or by counting', async () => {
    const port = await echo({ maxBytes: 6, timeoutMs: 5000 });
    expect((await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '123456' })).status).toBe(200);
    const declared = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '1234567' });
    expect(declared.status).toBe(413);
    expect(await declared.text()).toBe('refused request body too large: more than 6 bytes');
    // Chunked: no length up front, so the reader counts.
    const counted = await raw(
      port,
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n',
      ['5\r\n12345\r\n', '2\r\n67\r\n', '0\r\n\r\n'],
    );
    expect(counted.text).toMatch(/^HTTP\/1\.1 413/);
  });

  it('refuses a body that stops arriving with 408 once its time is up, not before', async () => {
    const port = await echo({ maxBytes: 100, timeoutMs: 300 });
    const held = await raw(
      port,
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 10\r\n\r\n12345',
      [],
    );
    expect(held.text).toMatch(/^HTTP\/1\.1 408[\s\S]*refused request body not received within 300 ms/);
    expect(held.ms).toBeGreaterThanOrEqual(290);
    expect(held.ms).toBeLessThan(3000);
  });
});

describe('jsonRpcError', () => {
  it('is a JSON-RPC error with a null id, as a Response with status and headers', async () => {
    expect(JSON.parse(jsonRpcErrorBody(-32001, 'Session not found'))).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found' },
      id: null,
    });
    const response = jsonRpcError(429, 'slow down', { 'retry-after': '1' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'slow down' }, id: null });
  });
});
