// The profile's subscriptions/listen stream, when it asks for one: the client's listen loop (client/listener.ts)
// on a connection of its own, through the same fetch as the workload's (so edge faults reach it), pinned to
// 2026-07-28 (the only wire with subscriptions/listen).
import { AttemptRegistry } from '../client/attempt-registry.ts';
import { transportFetch } from '../client/connection.ts';
import { type Listener, type ListenPolicy, startListener } from '../client/listener.ts';
import type { Session } from '../client/session.ts';
import { MODERN_VERSION } from '../core/pairing.ts';
import type { Profile } from '../profile/schema.ts';

/** Starts the listen loop when called; undefined when the profile listens to nothing. */
export function listenerFor(profile: Profile, session: Session, policy: ListenPolicy): (() => Listener) | undefined {
  const listen = profile.listen;
  if (!listen) return undefined;
  const options = session.options;
  return () =>
    startListener(
      // SDK 2.4's client loads with the first listen stream (client/connection.ts says why).
      async (onResourceUpdated) =>
        (await import('../client/sdk2-client.ts')).openSdk2({
          negotiation: { pin: MODERN_VERSION },
          url: options.url,
          // Its requests belong to no attempt.
          fetch: transportFetch(options.wrapFetch ? options.wrapFetch(fetch) : fetch, new AttemptRegistry()),
          reconnection: options.reconnection ?? { initialMs: 250, maxMs: 2000, grow: 1.5, maxRetries: 3 },
          connectTimeoutMs: options.connectTimeoutMs ?? 5000,
          onResourceUpdated,
        }),
      listen.resources,
      policy,
    );
}
