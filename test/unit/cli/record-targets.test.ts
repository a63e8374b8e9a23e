// faultline record reaches its server as a run would: placeholders expanded, an HTTP server's headers sent.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { recordedServer } from '../../../src/cli/record-targets/index.ts';

const placeholders = { tmpdir: '/tmp/rec', env: { REC_TOKEN: 't0k' } };
const loopbackOnly = { placeholders, allowNonLoopback: false };
/** `${name}` as a target spells it. */
const ref = (name: string) => `\${${name}}`;
let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A loopback endpoint that answers every POST with an empty JSON-RPC result and keeps the headers it saw. */
async function endpoint(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`, seen };
}

describe('recordedServer', () => {
  it("an HTTP server gets the target's headers, their placeholders expanded", async () => {
    const { url, seen } = await endpoint();
    const target = { kind: 'http' as const, url, headers: { Authorization: `Bearer ${ref('env:REC_TOKEN')}` } };
    const { open, name } = recordedServer(target, loopbackOnly);
    const transport = open();
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await transport.close();
    expect(name).toBe(url);
    expect(seen.map((h) => h.authorization)).toEqual(['Bearer t0k']);
  });

  it('a header whose variable is not set is a user error naming it', () => {
    const target = {
      kind: 'http' as const,
      url: 'http://127.0.0.1:1/mcp',
      headers: { Authorization: ref('env:NOPE') },
    };
    expect(() => recordedServer(target, loopbackOnly)).toThrow(
      `target.headers.Authorization: ${ref('env:NOPE')}: the environment variable is not set`,
    );
  });

  it('a non-loopback URL is refused unless allowed', () => {
    const target = { kind: 'http' as const, url: 'http://10.1.2.3:3000/mcp' };
    expect(() => recordedServer(target, loopbackOnly)).toThrow(/not a loopback address/);
    expect(recordedServer(target, { placeholders, allowNonLoopback: true }).name).toBe(target.url);
  });

  it('a stdio command is named with its arguments expanded; no target is a user error', () => {
    const target = { kind: 'stdio' as const, command: 'node', args: ['server.js', '--data', `${ref('tmpdir')}/db`] };
    expect(recordedServer(target, loopbackOnly).name).toBe('node server.js --data /tmp/rec/db');
    expect(() => recordedServer(undefined, loopbackOnly)).toThrow(/expected the server to record/);
  });
});
