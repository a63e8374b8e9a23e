// Outbound calls to the dependency APIs. Forwards the op's trace id, attempt number and the idempotency key as
// headers, enforces
// the server's own dependency timeout (aborting the fetch), and turns every failure into a DependencyFailure.

import { DEPENDENCY_URLS, type DependencyName, INITIAL_TOKEN } from '../../core/dependency-contract.ts';
import { parseRetryAfter } from '../../core/retry-after.ts';
import { socketCause } from '../../core/socket-cause.ts';
import { ATTEMPT_HEADER, IDEMPOTENCY_HEADER, TRACE_HEADER } from '../../core/wire.ts';
import { Cancelled, DependencyFailure } from '../errors.ts';

export interface DependencyRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  /** A call that changes state: its timeouts are reported as uncertain. */
  sideEffecting: boolean;
}

export interface DependencyResponse<T> {
  data: T;
  /** The dependency answered from its idempotency cache (Idempotent-Replayed header). */
  replayed: boolean;
}

export interface CallScope {
  traceId?: string;
  /** The client's attempt number for the op, when it sent one. */
  attempt?: number;
  signal: AbortSignal;
}

export class DependencyClient {
  /** The access token sent to every API; renewed by ServerCredentials. */
  token = INITIAL_TOKEN;

  constructor(
    private readonly timeoutMs: number,
    /** How a request reaches the dependency: the world's direct fetch in the reference server, else the global one. */
    readonly fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
  ) {}

  async call<T>(dependency: DependencyName, req: DependencyRequest, scope: CallScope): Promise<DependencyResponse<T>> {
    // One controller ends the fetch on either the timeout or the op's cancellation. The op's signal is followed by
    // a listener removed when the call ends: AbortSignal.any builds a signal with weak references and a finalizer
    // per call, a measurable part of the reference server's CPU per call.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    const cancel = () => timeout.abort(scope.signal.reason);
    if (scope.signal.aborted) cancel();
    else scope.signal.addEventListener('abort', cancel, { once: true });
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.token}` };
    if (scope.traceId) headers[TRACE_HEADER] = scope.traceId;
    if (scope.attempt !== undefined) headers[ATTEMPT_HEADER] = String(scope.attempt);
    if (req.idempotencyKey) headers[IDEMPOTENCY_HEADER] = req.idempotencyKey;
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const fail = (kind: 'timeout' | 'network' | 'bad-response' | 'status', extra = {}) =>
      new DependencyFailure(kind, dependency, {
        sideEffecting: req.sideEffecting,
        timeoutMs: this.timeoutMs,
        ...extra,
      });
    try {
      let response: Response;
      let text: string;
      try {
        response = await this.fetch(`${DEPENDENCY_URLS[dependency]}${req.path}`, {
          method: req.method,
          headers,
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
          signal: timeout.signal,
        });
        text = await response.text();
      } catch (error) {
        if (scope.signal.aborted) throw new Cancelled();
        if (timeout.signal.aborted) throw fail('timeout');
        // The socket's code says whether the request can have reached the dependency (core/socket-cause).
        throw fail('network', { cause: socketCause(error) });
      }
      // What the dependency answered, whole, for a failure's report (read only when the call failed).
      const rawHeaders = () => Object.fromEntries(response.headers.entries());
      if (!response.ok) {
        throw fail('status', {
          status: response.status,
          apiCode: apiCodeOf(text),
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
          rawBody: text,
          rawHeaders: rawHeaders(),
        });
      }
      if (!(response.headers.get('content-type') ?? '').includes('application/json')) {
        throw fail('bad-response', { status: response.status, rawBody: text.slice(0, 2000), rawHeaders: rawHeaders() });
      }
      try {
        const data = JSON.parse(text) as T;
        return { data, replayed: response.headers.get('idempotent-replayed') === 'true' };
      } catch {
        throw fail('bad-response', { status: response.status, rawBody: text.slice(0, 2000), rawHeaders: rawHeaders() });
      }
    } finally {
      clearTimeout(timer);
      scope.signal.removeEventListener('abort', cancel);
    }
  }
}

function apiCodeOf(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
