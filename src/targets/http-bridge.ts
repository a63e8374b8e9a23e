// A stdio MCP server put behind Streamable HTTP (target `over: http`), so that network faults (a Toxiproxy proxy in
// front of the bridge) and HTTP-edge faults (the client's fetch) reach a server that only speaks stdio. Each MCP
// session gets its own server process, as a stdio client would spawn one: the bridge's initialize starts a process
// and every message of the session is passed through unchanged, both ways. A process that exits ends its session,
// so the client's next request meets "session not found" and reconnects, which spawns the next process.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface HttpBridge {
  /** The MCP endpoint, http://127.0.0.1:PORT/mcp */
  readonly url: string;
  close(): Promise<void>;
}

const PATH = '/mcp';

/**
 * Serves `spawn()`'s server over Streamable HTTP on loopback (port 0: a free one); one new transport (a process, for
 * stdio) per MCP session.
 */
export async function startHttpBridge(spawn: () => Transport, port = 0): Promise<HttpBridge> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function openSession(): Promise<StreamableHTTPServerTransport> {
    const child = spawn();
    const http: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, http);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        void child.close();
      },
    });
    // Requests carry their ids, so each answer finds the HTTP response or stream that waits for it.
    http.onmessage = (message: JSONRPCMessage) => void child.send(message).catch(() => http.close());
    child.onmessage = (message: JSONRPCMessage) => void http.send(message).catch(() => {});
    child.onclose = () => {
      if (http.sessionId) sessions.delete(http.sessionId);
      void http.close();
    };
    http.onclose = () => void child.close();
    await child.start();
    await http.start();
    return http;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://bridge').pathname !== PATH) {
      res.writeHead(404).end('Not found: the MCP endpoint is /mcp');
      return;
    }
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res);
    if (typeof id === 'string' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    // No session yet: the transport itself refuses anything but an initialize; the process is spawned for it.
    const transport = await openSession();
    await transport.handleRequest(req, res);
    if (!transport.sessionId) await transport.close();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`stdio bridge: ${error.message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}${PATH}`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
