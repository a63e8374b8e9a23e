// A tiny HTTP endpoint that counts what reaches it, and a fault context around an EdgeController.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RandomStream } from '../../../../src/core/random.ts';
import { EdgeController } from '../../../../src/faults/edge/http/controller.ts';
import type { FaultContext } from '../../../../src/faults/kind.ts';

export interface Endpoint {
  url: string;
  seen: { method?: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

/** Answers every POST with 200 JSON; initialize gets a session id and the version it was offered back. */
export async function endpoint(answerVersion?: string): Promise<Endpoint> {
  const seen: Endpoint['seen'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body });
      const message = body ? JSON.parse(body) : {};
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      let result: unknown = { ok: true };
      if (message.method === 'initialize') {
        headers['mcp-session-id'] = `s${seen.length}`;
        result = { protocolVersion: answerVersion ?? message.params.protocolVersion };
      }
      res.writeHead(200, headers);
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export function faultContext(edge = new EdgeController(), id = 'f0-edge'): FaultContext & { edge: EdgeController } {
  return {
    edge,
    id,
    random: new RandomStream(1, id),
    env: { edge } as unknown as FaultContext['env'],
  };
}

export function rpc(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  };
}
