// A fetch answered in this process by the world's routes, for the reference server's own dependency calls. The
// msw interceptor answers them the same way but costs more than the whole tool call (it tries every handler in
// turn, each parsing cookies, and emits lifecycle events): on the reference server it was a third of the CPU per
// call. What the caller sees is what msw's fetch gives: a mocked Response.error() rejects as a TypeError whose
// cause is that response (its socket code included), and an abort rejects with the signal's reason while the
// handler goes on (a dependency that already acted does not undo it).
export type Answer = (request: Request) => Promise<Response> | undefined;

export function directFetch(answer: Answer): typeof fetch {
  return async (input, init) => {
    const request = requestOf(input, init);
    const pending = answer(request);
    if (!pending) throw networkError(`no dependency API answers ${request.method} ${request.url}`);
    const response = await abortable(pending, request.signal);
    if (response.type === 'error') throw networkError(response);
    return response;
  };
}

/**
 * The handlers' Request, carrying the caller's signal itself. Handed the signal, undici's Request follows it with
 * a controller of its own, a listener on it and a FinalizationRegistry entry that holds the caller's signal (and
 * what that signal holds) until the request is collected and the registry's cleanup has run: in heap snapshots of
 * the loaded server child, where requests outlive the young generation, thousands of them were alive.
 */
function requestOf(input: RequestInfo | URL, init: RequestInit = {}): Request {
  const { signal, ...rest } = init;
  const request = new Request(input, rest);
  if (signal) Object.defineProperty(request, 'signal', { value: signal });
  return request;
}

const networkError = (cause: unknown) => Object.assign(new TypeError('Failed to fetch'), { cause });

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
