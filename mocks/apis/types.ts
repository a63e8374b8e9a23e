// What every mocked dependency API is: a name, its fake host (from the server's dependency contract) and its routes.
// A route is data, one method and path with one resolver (a Request in, a Response out, as in msw); the world
// routes its fetch by method and path, and the fault engine wraps every one of them.
import { DEPENDENCIES, DEPENDENCY_URLS, type DependencyName } from '../../src/core/dependency-contract.ts';
import type { EffectLedger } from '../ledger.ts';
import type { DependencyState, Table } from '../state.ts';

export { DEPENDENCIES, DEPENDENCY_URLS, type DependencyName };

export interface ApiContext {
  ledger: EffectLedger;
  state: DependencyState;
  /** From the trace header the server forwards. */
  traceId?: string;
  /** From the attempt header the server forwards beside the trace id. */
  attempt?: number;
  /** From the Idempotency-Key header. */
  idempotencyKey?: string;
}

export type Resolver = (request: Request, ctx: ApiContext) => Response | Promise<Response>;

export interface Route {
  method: 'GET' | 'POST';
  /** Path under the API's URL; the query string is the resolver's business. */
  path: string;
  resolve: Resolver;
}

export const get = (path: string, resolve: Resolver): Route => ({ method: 'GET', path, resolve });
export const post = (path: string, resolve: Resolver): Route => ({ method: 'POST', path, resolve });

export interface DependencyApi {
  name: DependencyName;
  baseUrl: string;
  routes: readonly Route[];
  /** Its tables that keep a compact store of their own, by table name (any other table is a Map). */
  tables?: Readonly<Record<string, () => Table>>;
}

export function defineApi(
  name: DependencyName,
  routes: readonly Route[],
  tables?: Readonly<Record<string, () => Table>>,
): DependencyApi {
  return { name, baseUrl: DEPENDENCY_URLS[name], routes, ...(tables && { tables }) };
}

/** A JSON error body in the shape most REST APIs use. */
export function apiError(status: number, code: string, message: string, extra?: Record<string, unknown>): Response {
  return Response.json({ error: { code, message, ...extra } }, { status });
}

/** What every API answers off its routes (through the faults, like any request to it). */
export const unknownEndpoint: Resolver = () => apiError(404, 'not_found', 'Unknown endpoint');

export async function readJson(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body = (await request.json()) as unknown;
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
