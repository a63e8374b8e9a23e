// The control operations as JSON over HTTP, for servers outside the harness's process tree. Separate port,
// 127.0.0.1 by default, bearer token required on every route (compared in constant time), bodies bounded in size
// and time (core/read-body.ts). The routes are the operations' own (ops/):
// the body (if any) is the input, the answer's body the output (204 when there is none).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BodyLimits, DEFAULT_BODY_LIMITS, readBody } from '../core/read-body.ts';
import { type ControlChannel, type InputArgs, type OpName, type OutputOf, parseInput } from './control.ts';
import { ControlError } from './op.ts';
import { CONTROL_OPS } from './ops/index.ts';

export interface AdminHttpOptions {
  token: string;
  host?: string;
  port?: number;
  /** Bounds on a request body (default 1 MiB, 10 s): a larger one is 413, a slower one 408. */
  bodyLimits?: Partial<BodyLimits>;
}

export interface AdminHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Operation name by route ("PUT /faults"), for the operations that have one. */
const BY_ROUTE = new Map(
  (Object.keys(CONTROL_OPS) as OpName[]).flatMap((op) => {
    const route = CONTROL_OPS[op].route;
    return route ? [[route as string, op] as const] : [];
  }),
);

function routeOf(op: OpName): string {
  const route = CONTROL_OPS[op].route;
  if (!route) throw new Error(`control operation ${op} has no admin route`);
  return route;
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The bearer token check in constant time: both sides are hashed to 32 bytes first, so neither the content nor
 * the length of the expected token shows in how long a refusal takes. */
export function authorized(header: string | undefined, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${token}`));
}

/** The JSON body (undefined when there is none), or NO_BODY when it was refused (413, 408) or the client left. */
async function jsonBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<unknown> {
  const text = await readBody(req, res, limits, (r, status, message) => send(r, status, { error: message }));
  if (text === undefined) return NO_BODY;
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    throw new ControlError(400, 'body must be JSON');
  }
}

const NO_BODY = Symbol('no body');

/** Serves `channel` (the server's own LocalControl, or a ServerHandle's IPC) on the admin routes. */
export async function startAdminHttp(channel: ControlChannel, opts: AdminHttpOptions): Promise<AdminHttpServer> {
  if (!opts.token) throw new Error('the admin endpoint needs a non-empty token');
  const call = channel.call.bind(channel) as (op: OpName, input?: unknown) => Promise<unknown>;
  const limits = { ...DEFAULT_BODY_LIMITS, ...opts.bodyLimits };
  const server = createServer(async (req, res) => {
    if (!authorized(req.headers.authorization, opts.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return send(res, 401, { error: 'missing or wrong bearer token' });
    }
    const route = `${req.method} ${new URL(req.url ?? '/', 'http://localhost').pathname}`;
    const op = BY_ROUTE.get(route);
    if (!op) return send(res, 404, { error: `no route ${route}` });
    try {
      const body = await jsonBody(req, res, limits);
      if (body === NO_BODY) return;
      const input = parseInput(op, body);
      const output = await call(op, input);
      return send(res, output === undefined ? 204 : 200, output);
    } catch (error) {
      const status = error instanceof ControlError ? error.status : 500;
      return send(res, status, { error: error instanceof Error ? error.message : String(error) });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The control channel of an admin endpoint. */
export class AdminClient implements ControlChannel {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async call<N extends OpName>(op: N, ...input: InputArgs<N>): Promise<OutputOf<N>> {
    const [method, path] = routeOf(op).split(' ');
    const body = input[0];
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`admin ${method} ${path}: HTTP ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as OutputOf<N>;
  }
}
