// DNS-rebinding protection on the reference server, over real HTTP: loopback Host names pass on any port (through a
// Toxiproxy proxy the port is the proxy's), a browser-page name or Origin gets 403 with a JSON-RPC error body.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBackend } from '../../src/network/embedded.ts';
import { startReferenceServer } from '../../src/server/reference-server.ts';
import { call, connect, startServer } from './helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0)) await close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host-guard-test', version: '0' } },
});

/** POSTs initialize to 127.0.0.1:port with exactly these Host and Origin headers. */
function initialize(port: number, host: string, origin?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          host,
          ...(origin && { origin }),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('Host and Origin validation', () => {
  it('answers loopback names on the server port and through a proxy on another port', async () => {
    const server = await startServer();
    const backend = await startEmbeddedBackend();
    cleanups.push(() => backend.close());
    const proxy = await backend.createProxy('host-guard', { port: server.port });
    expect(proxy.port).not.toBe(server.port);
    for (const port of [server.port, proxy.port]) {
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`]) {
        const answer = await initialize(port, host);
        expect(answer.status, `${host} via ${port}`).toBe(200);
        expect(answer.body).toContain('"protocolVersion"');
      }
      expect((await initialize(port, `127.0.0.1:${port}`, `http://localhost:5173`)).status).toBe(200);
    }
    // An MCP client through the proxy: its Host names the proxy's port, and it works end to end.
    const { client } = await connect(`http://127.0.0.1:${proxy.port}/mcp`);
    expect((await call(client, 'search_documents', { query: '*' })).isError).toBeFalsy();
  });

  it('refuses a rebinding-style Host or a foreign Origin with 403 and a JSON-RPC error, on either port', async () => {
    const server = await startServer();
    const backend = await startEmbeddedBackend();
    cleanups.push(() => backend.close());
    const proxy = await backend.createProxy('host-guard', { port: server.port });
    for (const port of [server.port, proxy.port]) {
      // The same connection to 127.0.0.1 as above: only the name in Host differs, as after a DNS rebinding.
      const rebound = await initialize(port, `rebind.attacker.example:${port}`);
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body)).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Forbidden: Host "rebind.attacker.example:${port}" is not a loopback name (DNS-rebinding protection)`,
        },
        id: null,
      });
      const foreign = await initialize(port, `127.0.0.1:${port}`, 'https://evil.example');
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body).error.message).toMatch(/Origin "https:\/\/evil\.example" is not a loopback/);
      expect((await initialize(port, `127.0.0.1:${port}`, 'null')).status).toBe(403);
    }
  });

  it('answers a name it was told to allow (a cluster service in front of it), and no other', async () => {
    const server = await startReferenceServer({ seed: 1, allowedHosts: ['toxiproxy'] });
    cleanups.push(() => server.close());
    const { port } = server.http;
    expect((await initialize(port, 'toxiproxy:26001')).status).toBe(200);
    expect((await initialize(port, 'sut:3000')).status).toBe(403);
  });
});
