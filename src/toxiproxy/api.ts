// The HTTP API: the routes of Routes() in api.go with their status codes and bodies. Reads answer at once; a
// change first reads its body (bounded, core/read-body.ts), then waits its turn (change-order.ts) for the state.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BodyLimits, DEFAULT_BODY_LIMITS, type RefuseBody, readBody } from '../core/read-body.ts';
import { ChangeOrder } from './change-order.ts';
import { ApiError, asApiError, errors } from './errors.ts';
import { sendApiError, sendJson, sendMethodNotAllowed, sendNoContent, sendNotFound, sendText } from './http-reply.ts';
import { parseJson } from './json-decode.ts';
import type { ProxyCollection } from './proxies.ts';
import { toxicJson } from './toxic.ts';

/** Version reported on /version: Toxiproxy's release, with build metadata naming this server. */
const EMBEDDED_VERSION = '2.12.0+faultline';

const VERSION_BODY = `{"version": "${EMBEDDED_VERSION}"}\n`;

interface Context {
  params: string[];
  /** The decoded request body; throws Toxiproxy's 400 `bad request body: …` when it is not JSON. */
  body: () => unknown;
  res: ServerResponse;
}

type Handler = (ctx: Context) => void | Promise<void>;

/** What a method waits for: nothing (a read), earlier changes to its proxy, or every earlier change. */
type Turn = 'read' | 'proxy' | 'collection';

interface Method {
  turn: Turn;
  handle: Handler;
}

interface Route {
  pattern: string[];
  methods: Record<string, Method>;
}

const read = (handle: Handler): Method => ({ turn: 'read', handle });
const proxyChange = (handle: Handler): Method => ({ turn: 'proxy', handle });
const collectionChange = (handle: Handler): Method => ({ turn: 'collection', handle });

/** Parses now, outside any turn; a parse failure is raised only if the handler asks for the body (a DELETE
 * never does, so a change without a body costs no error object). */
function decodeBody(text: string): () => unknown {
  const parsed = parseJson(text);
  return () => {
    if ('failure' in parsed) throw errors.badRequestBody(parsed.failure);
    return parsed.value;
  };
}

function routes(proxies: ProxyCollection): Route[] {
  return [
    {
      pattern: ['reset'],
      methods: {
        POST: collectionChange(async ({ res }) => {
          await proxies.reset();
          sendNoContent(res);
        }),
      },
    },
    {
      pattern: ['proxies'],
      methods: {
        GET: read(({ res }) => sendJson(res, 200, proxies.indexText())),
        POST: collectionChange(async ({ body, res }) => sendJson(res, 201, (await proxies.create(body())).jsonText())),
      },
    },
    {
      pattern: ['populate'],
      methods: {
        POST: collectionChange(async ({ body, res }) => {
          let input: unknown;
          try {
            input = body();
          } catch (error) {
            input = error;
          }
          const result = input instanceof ApiError ? { proxies: null, error: input } : await proxies.populate(input);
          const payload = {
            ...(result.error ? result.error.toJSON() : {}),
            proxies: result.proxies ? result.proxies.map((proxy) => proxy.json()) : null,
          };
          sendJson(res, result.error ? result.error.status : 201, payload);
        }),
      },
    },
    {
      pattern: ['proxies', '*'],
      methods: {
        GET: read(({ params, res }) => sendJson(res, 200, proxies.get(params[0]).jsonText())),
        POST: proxyChange(updateProxy),
        PATCH: proxyChange(updateProxy),
        DELETE: collectionChange(({ params, res }) => {
          proxies.remove(params[0]);
          sendNoContent(res);
        }),
      },
    },
    {
      pattern: ['proxies', '*', 'toxics'],
      methods: {
        GET: read(({ params, res }) => sendJson(res, 200, proxies.get(params[0]).toxics.list().map(toxicJson))),
        POST: proxyChange(async ({ params, body, res }) => {
          const proxy = proxies.get(params[0]);
          // Toxiproxy answers 200, not 201, for a new toxic.
          sendJson(res, 200, toxicJson(await proxy.toxics.add(body())));
        }),
      },
    },
    {
      pattern: ['proxies', '*', 'toxics', '*'],
      methods: {
        GET: read(({ params, res }) => {
          const toxic = proxies.get(params[0]).toxics.find(params[1]);
          if (!toxic) throw new ApiError('toxic not found', 404);
          sendJson(res, 200, toxicJson(toxic));
        }),
        POST: proxyChange(updateToxic),
        PATCH: proxyChange(updateToxic),
        DELETE: proxyChange(async ({ params, res }) => {
          await proxies.get(params[0]).toxics.remove(params[1]);
          sendNoContent(res);
        }),
      },
    },
    {
      pattern: ['version'],
      methods: {
        GET: read(({ res }) => sendJson(res, 200, VERSION_BODY, 'application/json;charset=utf-8')),
      },
    },
  ];

  async function updateProxy({ params, body, res }: Context) {
    const proxy = proxies.get(params[0]);
    sendJson(res, 200, (await proxies.update(proxy.name, body())).jsonText());
  }

  async function updateToxic({ params, body, res }: Context) {
    const proxy = proxies.get(params[0]);
    if (!proxy.toxics.find(params[1])) throw new ApiError('toxic not found', 404);
    sendJson(res, 200, toxicJson(await proxy.toxics.update(params[1], body())));
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
    const segments = path
      .split('/')
      .slice(1)
      .map((segment) => (segment.includes('%') ? decodeURIComponent(segment) : segment));
    return segments.some((segment) => segment === '') ? undefined : segments;
  } catch {
    return undefined;
  }
}

/** Runs a handler; a thrown ApiError (or any error, as 500) becomes Toxiproxy's JSON error reply. */
async function respond(handle: Handler, ctx: Context): Promise<void> {
  try {
    await handle(ctx);
  } catch (error) {
    if (!ctx.res.headersSent) sendApiError(ctx.res, asApiError(error));
  }
}

const noBody = () => undefined;

/** A body the API will not take gets upstream's error format. */
const refuseBody: RefuseBody = (res, status, message) => sendApiError(res, new ApiError(message, status));

/** A request handler for node:http. */
export function createApiHandler(
  proxies: ProxyCollection,
  limits: BodyLimits = DEFAULT_BODY_LIMITS,
): (req: IncomingMessage, res: ServerResponse) => void {
  const table = routes(proxies);
  const order = new ChangeOrder();
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
    if (!route || !params) return sendNotFound(res);
    const method = route.methods[req.method ?? 'GET'];
    if (!method) return sendMethodNotAllowed(res);
    if ((req.headers['user-agent'] ?? '').startsWith('Mozilla/')) return sendText(res, 403, 'User agent not allowed');
    const routeParams = params;
    if (method.turn === 'read') {
      respond(method.handle, { params: routeParams, body: noBody, res });
      return;
    }
    readBody(req, res, limits, refuseBody).then((text) => {
      if (text === undefined) return;
      const ctx = { params: routeParams, body: decodeBody(text), res };
      order.run(method.turn === 'proxy' ? routeParams[0] : undefined, () => respond(method.handle, ctx));
    });
  };
}
