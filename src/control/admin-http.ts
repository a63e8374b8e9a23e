// The control operations as JSON over HTTP, for servers outside the harness's process tree. Separate port,
// 127.0.0.1 by default, bearer token required on every route.
//   GET /ledger, GET /decisions, PUT /faults (body: fault spec array), POST /reset,
//   PUT /behaviour (body: server behaviour object, see behaviour.ts), GET /behaviour/stats
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';
import { readBody } from '../core/read-body.ts';
import type { BehaviourStats, ServerBehaviour } from '../server/behaviour.ts';
import type { ControlApi } from './control.ts';

export interface AdminHttpOptions {
  token: string;
  host?: string;
  port?: number;
}

export interface AdminHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function authorized(req: IncomingMessage, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export async function startAdminHttp(api: ControlApi, opts: AdminHttpOptions): Promise<AdminHttpServer> {
  if (!opts.token) throw new Error('the admin endpoint needs a non-empty token');
  const server = createServer(async (req, res) => {
    if (!authorized(req, opts.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return send(res, 401, { error: 'missing or wrong bearer token' });
    }
    const route = `${req.method} ${new URL(req.url ?? '/', 'http://localhost').pathname}`;
    try {
      switch (route) {
        case 'GET /ledger':
          return send(res, 200, await api.ledger());
        case 'GET /decisions':
          return send(res, 200, await api.decisions());
        case 'PUT /faults': {
          let body: unknown;
          try {
            body = await readBody(req);
          } catch {
            return send(res, 400, { error: 'body must be a JSON array of fault specs' });
          }
          try {
            await api.setDependencyFaults(body as DependencyFaultSpecInput[]);
          } catch (error) {
            return send(res, 400, { error: error instanceof Error ? error.message : String(error) });
          }
          return send(res, 204);
        }
        case 'POST /reset':
          await api.reset();
          return send(res, 204);
        case 'PUT /behaviour': {
          let body: unknown;
          try {
            body = await readBody(req);
          } catch {
            return send(res, 400, { error: 'body must be a JSON server behaviour object' });
          }
          try {
            if (!api.setBehaviour) return send(res, 404, { error: 'this server has no behaviour faults' });
            await api.setBehaviour(body as ServerBehaviour);
          } catch (error) {
            return send(res, 400, { error: error instanceof Error ? error.message : String(error) });
          }
          return send(res, 204);
        }
        case 'GET /behaviour/stats':
          if (!api.behaviourStats) return send(res, 404, { error: 'this server has no behaviour faults' });
          return send(res, 200, await api.behaviourStats());
        default:
          return send(res, 404, { error: `no route ${route}` });
      }
    } catch (error) {
      return send(res, 500, { error: error instanceof Error ? error.message : String(error) });
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

/** A ControlApi talking to an admin endpoint. */
export class AdminClient implements ControlApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
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
    return text ? JSON.parse(text) : undefined;
  }

  async setDependencyFaults(faults: DependencyFaultSpecInput[]): Promise<void> {
    await this.call('PUT', '/faults', faults);
  }

  async ledger(): Promise<Effect[]> {
    return (await this.call('GET', '/ledger')) as Effect[];
  }

  async decisions(): Promise<DecisionRecord[]> {
    return (await this.call('GET', '/decisions')) as DecisionRecord[];
  }

  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }

  async setBehaviour(behaviour: ServerBehaviour): Promise<void> {
    await this.call('PUT', '/behaviour', behaviour);
  }

  async behaviourStats(): Promise<BehaviourStats> {
    return (await this.call('GET', '/behaviour/stats')) as BehaviourStats;
  }
}
