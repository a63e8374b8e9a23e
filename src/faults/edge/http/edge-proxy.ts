// The MCP-edge seam as an HTTP reverse proxy, for a client that is not the harness's own (e.g. the official
// conformance suite's): every request is forwarded through the edge controller's fetch chain, so the same edge
// rules (status, sse-cut, header, ...) act on it as on the harness's client. Bodies stream both ways; the Host the
// upstream sees is its own (fetch sets it), Origin and every other request header pass unchanged.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { EdgeController } from './controller.ts';

export interface EdgeProxy {
  /** http://127.0.0.1:PORT, in front of the upstream's origin (paths pass through). */
  readonly url: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers and those fetch sets itself: never copied across. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'upgrade',
]);

function forwardable(headers: IncomingMessage['headers'] | Headers): Headers {
  const out = new Headers();
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined || NOT_FORWARDED.has(name.toLowerCase())) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}

async function bodyOf(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** Listens on loopback and forwards to `upstream` (an origin, e.g. http://127.0.0.1:8666) through `edge`. */
export async function startEdgeProxy(upstream: string, edge: EdgeController): Promise<EdgeProxy> {
  const send = edge.wrap(fetch);
  const server = createServer((req, res) => {
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    void (async () => {
      const answer = await send(new URL(req.url ?? '/', upstream).toString(), {
        method: req.method,
        headers: forwardable(req.headers),
        body: await bodyOf(req),
        signal: aborted.signal,
      });
      const headers = Object.fromEntries(forwardable(answer.headers));
      res.writeHead(answer.status, headers);
      if (!answer.body) return void res.end();
      Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream)
        .on('error', () => res.destroy())
        .pipe(res);
    })().catch(() => {
      // The upstream link failed (a reset, a cut stream): the client's own connection ends too, as it would have
      // without the proxy in between; an HTTP 502 here would turn a network fault into an HTTP one.
      res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
