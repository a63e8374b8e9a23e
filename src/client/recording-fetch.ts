// The client's recording fetch: each response's status and Retry-After go to the attempt its request belongs to.
// It finds the attempt from the request itself (attempt-registry.ts), not from an async context: AsyncLocalStorage's
// promise hooks cost the client 1.5 to 3 % of its CPU per call on Node 20 (docs/scale.md).
import { isInputRound } from '../core/input-round.ts';
import { parseRetryAfter } from '../core/retry-after.ts';
import { HEADER_TAMPERED_HEADER } from '../core/wire.ts';
import type { AttemptRegistry } from './attempt-registry.ts';
import { watchedResponse } from './watched-stream.ts';

/** A fetch that records each response's status and Retry-After into the attempt its request belongs to. */
export function recordingFetch(inner: typeof fetch, attempts: AttemptRegistry): typeof fetch {
  return async (input, init) => {
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : undefined;
    const lastEventId = method === 'GET' ? headerOf(init?.headers, 'last-event-id') : undefined;
    const attempt = attempts.of(method, body, lastEventId);
    if (!attempt) return inner(input, init);
    // Counted as sent, whatever becomes of its answer: a round the edge loses was still a round trip begun.
    if (isInputRound(body)) attempt.inputRounds = (attempt.inputRounds ?? 0) + 1;
    const response = await inner(input, init);
    if (response.ok && lastEventId !== undefined) attempt.resumptions = (attempt.resumptions ?? 0) + 1;
    if (method === 'POST') {
      attempt.status = response.status;
      const advised = parseRetryAfter(response.headers.get('retry-after'));
      if (advised !== undefined) attempt.retryAfterMs = advised;
      // The last POST decides: SDK 2.4 re-sends a request refused with -32020 once, which may pass untouched.
      if (response.headers.has(HEADER_TAMPERED_HEADER)) attempt.headerTampered = true;
      else delete attempt.headerTampered;
    }
    return watchedResponse(response, attempt, attempts);
  };
}

function headerOf(headers: HeadersInit | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const value = headers instanceof Headers ? headers.get(name) : new Headers(headers).get(name);
  return value ?? undefined;
}
