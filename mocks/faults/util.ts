// Small helpers shared by fault kinds.
import { HttpResponse } from 'msw';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Resolves after ms, or early (with false) when the signal aborts. The timer never keeps the process alive. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => done(true), Math.min(Math.max(0, ms), MAX_TIMER_MS));
    timer.unref();
    const onAbort = () => done(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    function done(completed: boolean) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    }
  });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A plain error answer for an injected status. */
export function statusResponse(status: number, headers?: Record<string, string>): Response {
  const message = REASONS[status] ?? 'Error';
  return HttpResponse.json({ error: { code: `http_${status}`, message } }, { status, headers });
}

const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit ';

export function filler(bytes: number): string {
  return FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, bytes);
}
