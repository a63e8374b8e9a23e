// Every request the SDK's transport sends carries the transport's one AbortSignal, and fetch (undici's Request)
// adds an abort listener to it that only garbage collection takes off again: a long run piles up thousands and
// Node prints MaxListenersExceededWarning (issue 14). Requests get a signal that follows the shared one instead
// (AbortSignal.any holds its source weakly and adds no listener to it), and each such signal serves a bounded
// number of requests before the next is made: AbortSignal.any costs about 15 µs on Node 20, most of what the
// harness's fetch chain cost per call when every request made one. A follower only ever aborts when the shared
// signal does, so requests sharing one see exactly what they would with a signal each.

/**
 * Requests per follower: far below the 1500 listeners undici allows a signal before Node warns, and few enough that
 * the copy of the follower's listeners each new request makes (undici's getEventListeners check) stays cheap. A new
 * follower, its check and its listener cost 3.3 µs a request at 256 and 1.1 to 1.5 at 64 (Node 20, in a loop).
 */
export const REQUESTS_PER_FOLLOWER = 64;

interface Follower {
  signal: AbortSignal;
  uses: number;
}

export function ownSignalPerRequest(inner: typeof fetch): typeof fetch {
  const followers = new WeakMap<AbortSignal, Follower>();
  const follow = (shared: AbortSignal): AbortSignal => {
    let follower = followers.get(shared);
    if (!follower || follower.uses >= REQUESTS_PER_FOLLOWER) {
      follower = { signal: AbortSignal.any([shared]), uses: 0 };
      followers.set(shared, follower);
    }
    follower.uses++;
    return follower.signal;
  };
  return (input, init) => inner(input, init?.signal ? { ...init, signal: follow(init.signal) } : init);
}
