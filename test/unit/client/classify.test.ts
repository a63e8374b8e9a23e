// The outcome table of client/classify.ts: a failure is `uncertain` (a given-up write ends `info`) unless it is a
// definite signal that nothing happened. Link failures are real fetch errors from real loopback sockets.
import { createServer, type Server } from 'node:net';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyError, classifyResult } from '../../../src/client/classify.ts';
import { opOutcome } from '../../../src/client/outcome.ts';
import { toolError } from './fakes.ts';

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A loopback TCP server that does `onData` to each connection when the request arrives. */
async function socketServer(onData: (socket: import('node:net').Socket) => void): Promise<string> {
  const server = createServer((socket) => socket.once('data', () => onData(socket)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/mcp`;
}

const fetchError = (url: string) =>
  fetch(url, { method: 'POST', body: '{}' }).then(
    () => {
      throw new Error('expected fetch to fail');
    },
    (e: unknown) => e,
  );

/** A port nobody listens on: bind one, note it, close it. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/mcp`;
}

describe('classify: the MCP link', () => {
  it('a refused connection is LINK.REFUSED, certain: nothing was sent', async () => {
    const c = classifyError(await fetchError(await closedPort()));
    expect(c).toMatchObject({ category: 'LINK', errorCode: 'LINK.REFUSED', cause: 'ECONNREFUSED' });
    expect(c).toMatchObject({ retryable: true, uncertain: false, transportLost: true });
    expect(opOutcome(false, true, c.uncertain)).toBe('fail');
  });

  it('a reset after the request was sent is LINK.RESET, uncertain, with the socket cause kept', async () => {
    const c = classifyError(await fetchError(await socketServer((s) => s.resetAndDestroy())));
    expect(c).toMatchObject({ category: 'LINK', errorCode: 'LINK.RESET', cause: 'ECONNRESET', uncertain: true });
    expect(c.message).toContain('ECONNRESET');
    expect(opOutcome(false, true, c.uncertain)).toBe('info');
  });

  it('a close without an answer is LINK.RESET too (UND_ERR_SOCKET), uncertain', async () => {
    const c = classifyError(await fetchError(await socketServer((s) => s.end())));
    expect(c).toMatchObject({ errorCode: 'LINK.RESET', cause: 'UND_ERR_SOCKET', uncertain: true });
  });

  it('an unresolvable host is LINK.UNREACHABLE, certain', () => {
    const error = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND mcp.invalid'), { code: 'ENOTFOUND' }),
    });
    expect(classifyError(error)).toMatchObject({ errorCode: 'LINK.UNREACHABLE', uncertain: false });
  });

  it("our request timeout is LINK.TIMEOUT and a closed connection LINK.CLOSED, both uncertain; never the server's DEPENDENCY codes", () => {
    const timeout = classifyError(new McpError(ErrorCode.RequestTimeout, 'Request timed out'));
    expect(timeout).toMatchObject({ category: 'LINK', errorCode: 'LINK.TIMEOUT', uncertain: true, retryable: true });
    const closed = classifyError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    expect(closed).toMatchObject({ category: 'LINK', errorCode: 'LINK.CLOSED', uncertain: true, transportLost: true });
    expect(classifyError(new Error('Not connected'))).toMatchObject({
      errorCode: 'LINK.NOT_CONNECTED',
      uncertain: false,
    });
  });
});

describe('classify: HTTP answers of the MCP endpoint', () => {
  const http = (status: number, message = `HTTP ${status}`) => classifyError(new StreamableHTTPError(status, message));

  it.each([
    [400, 'PROTO.HTTP_400'],
    [403, 'PROTO.HTTP_403'],
    [404, 'PROTO.SESSION_NOT_FOUND'],
    [413, 'VALIDATION.PAYLOAD_TOO_LARGE'],
    [429, 'DEPENDENCY.RATE_LIMITED'],
  ])('%i is a refusal (%s): certain, a given-up write fails', (status, code) => {
    const c = http(status);
    expect(c.errorCode).toBe(code);
    expect(c.uncertain).toBe(false);
  });

  it.each([500, 502, 503, 504])('%i is ambiguous: a gateway may answer it after the server ran the tool', (status) => {
    const c = classifyError(new StreamableHTTPError(status, 'Service Unavailable'), { retryAfterMs: 1000 });
    expect(c).toMatchObject({
      category: 'EDGE',
      errorCode: `EDGE.HTTP_${status}`,
      uncertain: true,
      retryAfterMs: 1000,
    });
  });

  it("the other era's refusal in a 400's body (a mixed fleet's replica) is retried (a new connection where it must), nothing ran", () => {
    const posting = (error: object) =>
      new StreamableHTTPError(400, `Error POSTing to endpoint: ${JSON.stringify({ jsonrpc: '2.0', id: 1, error })}`);
    const refusal = { retryable: true, uncertain: false, renegotiate: true };
    // SDK 2.4's modern-only handler refusing a 2025 request; SDK 1.32 given a request without a session.
    expect(classifyError(posting({ code: -32022, message: 'Unsupported protocol version: 2025-11-25' }))).toMatchObject(
      { errorCode: 'PROTO.VERSION_REFUSED', ...refusal },
    );
    // The 2026-07-28 request carries all it needs: a plain retry, no new connection.
    const notInitialized = classifyError(posting({ code: -32000, message: 'Bad Request: Server not initialized' }));
    expect(notInitialized).toMatchObject({ errorCode: 'PROTO.NOT_INITIALIZED', retryable: true, uncertain: false });
    expect(notInitialized.renegotiate).toBeUndefined();
    // SDK 2.4 pinned whose server/discover probe met a server that does not offer the version (EraNegotiationFailed).
    const pinned = new Error(
      'protocol version is not supported: Version negotiation failed: the server did not offer pinned protocol ' +
        'version 2026-07-28 via server/discover (no fallback in pin mode)',
    );
    expect(classifyError(pinned)).toMatchObject({ errorCode: 'PROTO.PIN_NOT_OFFERED', ...refusal });
    // Another 400 under the generic code stays a plain refusal.
    expect(
      classifyError(posting({ code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' })),
    ).toMatchObject({ errorCode: 'PROTO.HTTP_400', retryable: false });
  });

  it('an answer the transport could not take (no HTTP status) may come after the server ran it', () => {
    expect(classifyError(new StreamableHTTPError(-1, 'Unexpected content type: text/html'))).toMatchObject({
      errorCode: 'PROTO.HTTP_UNKNOWN',
      uncertain: true,
    });
  });
});

describe('classify: JSON-RPC errors and results', () => {
  it('errors refused before running are certain; an internal error thrown while running is not', () => {
    expect(classifyError(new McpError(ErrorCode.InvalidParams, 'Unknown tool: x'))).toMatchObject({
      errorCode: 'VALIDATION.UNKNOWN_TOOL',
      uncertain: false,
    });
    expect(classifyError(new McpError(ErrorCode.MethodNotFound, 'no'))).toMatchObject({ uncertain: false });
    expect(classifyError(new McpError(-32022, 'Unsupported protocol version: 2026-07-28'))).toMatchObject({
      errorCode: 'PROTO.VERSION_REFUSED',
      retryable: true,
      uncertain: false,
      renegotiate: true,
    });
    expect(classifyError(new McpError(ErrorCode.InternalError, 'boom'))).toMatchObject({
      errorCode: 'PROTO.JSONRPC_32603',
      uncertain: true,
    });
  });

  it('a structured tool error is as uncertain as the server says; an unstructured one is uncertain', () => {
    expect(
      classifyResult(toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE', { details: { uncertain: true } })),
    ).toMatchObject({ uncertain: true });
    expect(classifyResult(toolError('DEPENDENCY', 'DEPENDENCY.NETWORK', { retryable: true }))).toMatchObject({
      uncertain: false,
    });
    expect(classifyResult({ isError: true, content: [{ type: 'text', text: 'it broke' }] })).toMatchObject({
      errorCode: 'INTERNAL.UNSTRUCTURED',
      uncertain: true,
    });
  });

  it("keeps an unstructured error's own text as its message (a server we did not write says it in its words)", () => {
    expect(
      classifyResult({
        isError: true,
        content: [
          { type: 'text', text: 'Entity with name x already exists' },
          { type: 'image', data: '' },
        ],
      }).message,
    ).toBe('Entity with name x already exists');
    expect(classifyResult({ isError: true }).message).toBeUndefined();
  });
});
