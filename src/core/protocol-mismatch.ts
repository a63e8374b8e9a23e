// The client's own version check failed: the server answered initialize with a protocol version this client
// does not speak. The client disconnects (spec 2025-11-25 lifecycle: the client SHOULD disconnect); retrying
// the same negotiation cannot help, so it is PROTO and not retryable.
export class ProtocolVersionRejected extends Error {
  constructor(
    readonly offered: string,
    readonly answered: string,
    readonly accepted: readonly string[],
  ) {
    super(
      `protocol version mismatch: offered ${offered}, the server answered ${answered}, the client accepts only ${accepted.join(', ')}`,
    );
    this.name = 'ProtocolVersionRejected';
  }
}

/** Versions below this one get no SSE priming events from an SDK 1.32 server: no resumability. */
const RESUMABLE_SINCE = '2025-11-25';

export function resumable(version: string | undefined): boolean {
  return version !== undefined && version >= RESUMABLE_SINCE;
}
