// Every request the SDK's transport sends carries the transport's one AbortSignal, and fetch (undici's Request)
// adds an abort listener to it that only garbage collection takes off again: a long run piles up thousands and
// Node prints MaxListenersExceededWarning (issue 14). Each request gets a signal of its own that follows the
// shared one instead: AbortSignal.any holds its source weakly and adds no listener to it.
export function ownSignalPerRequest(inner: typeof fetch): typeof fetch {
  return (input, init) => inner(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);
}
