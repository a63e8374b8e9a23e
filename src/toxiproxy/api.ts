// The HTTP API: the routes of Routes() in api.go with their status codes and bodies. Requests are handled one
// at a time, standing in for the collection locks Toxiproxy holds across a change.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../core/read-body.ts';
import { ApiError, asApiError } from './errors.ts';
import { sendApiError, sendEmpty, sendJson, sendText } from './http-reply.ts';
import { DecodeError, parseJson } from './json-decode.ts';
import type { ProxyCollection } from './proxies.ts';
import { toxicJson } from './toxic.ts';

/** Version reported on /version: Toxiproxy's release, with build metadata naming this server. */
export const EMBEDDED_VERSION = '2.12.0+faultline';

type Handler = (ctx: { params: string[]; body: () => Promise<unknown>; res: ServerResponse }) => Promise<void>;

interface Route {
  pattern: string[];
  methods: Record<string, Handler>;
}

/** Toxiproxy's JSON decoding (Go's rules), its errors a 400 like the real API's. */
function decodeBody(text: string): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    if (error instanceof DecodeError) throw new ApiError(`bad request body: ${error.message}`, 400);
    throw error;
  }
}

function routes(proxies: ProxyCollection): Route[] {
  return [
    {
      pattern: ['reset'],
      methods: {
        POST: async ({ res }) => {
          await proxies.reset();
          sendEmpty(res, 204);
        },
      },
    },
    {
      pattern: ['proxies'],
      methods: {
        GET: async ({ res }) => sendJson(res, 200, proxies.index()),
        POST: async ({ body, res }) => sendJson(res, 201, (await proxies.create(await body())).json()),
      },
    },
    {
      pattern: ['populate'],
      methods: {
        POST: async ({ body, res }) => {
          let input: unknown;
          try {
            input = await body();
          } catch (error) {
            input = error;
          }
          const result = input instanceof ApiError ? { proxies: null, error: input } : await proxies.populate(input);
          const payload = {
            ...(result.error ? result.error.toJSON() : {}),
            proxies: result.proxies ? result.proxies.map((proxy) => proxy.json()) : null,
          };
          sendJson(res, result.error ? result.error.status : 201, payload);
        },
      },
    },
    {
      pattern: ['proxies', '*'],
      methods: {
        GET: async ({ params, res }) => sendJson(res, 200, proxies.get(params[0]).json()),
        POST: updateProxy,
        PATCH: updateProxy,
        DELETE: async ({ params, res }) => {
          proxies.remove(params[0]);
          sendEmpty(res, 204);
        },
      },
    },
    {
      pattern: ['proxies', '*', 'toxics'],
      methods: {
        GET: async ({ params, res }) => sendJson(res, 200, proxies.get(params[0]).toxics.list().map(toxicJson)),
        POST: async ({ params, body, res }) => {
          const proxy = proxies.get(params[0]);
          // Toxiproxy answers 200, not 201, for a new toxic.
          sendJson(res, 200, toxicJson(await proxy.toxics.add(await body())));
        },
      },
    },
    {
      pattern: ['proxies', '*', 'toxics', '*'],
      methods: {
        GET: async ({ params, res }) => {
          const toxic = proxies.get(params[0]).toxics.find(params[1]);
          if (!toxic) throw new ApiError('toxic not found', 404);
          sendJson(res, 200, toxicJson(toxic));
        },
        POST: updateToxic,
        PATCH: updateToxic,
        DELETE: async ({ params, res }) => {
          await proxies.get(params[0]).toxics.remove(params[1]);
          sendEmpty(res, 204);
        },
      },
    },
    {
      pattern: ['version'],
      methods: {
        GET: async ({ res }) =>
          sendJson(res, 200, `{"version": "${EMBEDDED_VERSION}"}\n`, 'application/json;charset=utf-8'),
      },
    },
  ];

  async function updateProxy({ params, body, res }: Parameters<Handler>[0]) {
    const proxy = proxies.get(params[0]);
    sendJson(res, 200, (await proxies.update(proxy.name, await body())).json());
  }

  async function updateToxic({ params, body, res }: Parameters<Handler>[0]) {
    const proxy = proxies.get(params[0]);
    if (!proxy.toxics.find(params[1])) throw new ApiError('toxic not found', 404);
    sendJson(res, 200, toxicJson(await proxy.toxics.update(params[1], await body())));
  }
}

function match(route: Route, segments: string[]): string[] | undefined {
  if (route.pattern.length !== segments.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    if (route.pattern[i] === '*') params.push(segments[i]);
    else if (route.pattern[i] !== segments[i]) return undefined;
  }
  return params;
}

function pathSegments(url: string): string[] | undefined {
  const path = url.split('?')[0];
  try {
    const segments = path.split('/').slice(1).map(decodeURIComponent);
    return segments.some((segment) => segment === '') ? undefined : segments;
  } catch {
    return undefined;
  }
}

/** A request handler for node:http. */
export function createApiHandler(proxies: ProxyCollection): (req: IncomingMessage, res: ServerResponse) => void {
  const table = routes(proxies);
  let queue: Promise<void> = Promise.resolve();
  return (req, res) => {
    const segments = pathSegments(req.url ?? '/');
    let route: Route | undefined;
    let params: string[] | undefined;
    for (const candidate of table) {
      params = segments && match(candidate, segments);
      if (params) {
        route = candidate;
        break;
      }
    }
    // gorilla/mux: unknown path 404 with a text body, known path with another method 405 with none.
    if (!route || !params) return sendText(res, 404, '404 page not found');
    const handler = route.methods[req.method ?? 'GET'];
    if (!handler) return sendEmpty(res, 405);
    if ((req.headers['user-agent'] ?? '').startsWith('Mozilla/')) return sendText(res, 403, 'User agent not allowed');
    const routeParams = params;
    queue = queue.then(() =>
      handler({ params: routeParams, body: () => readBody(req, { parse: decodeBody }), res }).catch((error) => {
        if (!res.headersSent) sendApiError(res, asApiError(error));
      }),
    );
  };
}
