// Per-process server state shared by every session: the dependency client, the idempotency store, the
// create_payment calls in flight (so get_payment_status can answer "processing") and every tool handler in flight
// (so a harness can wait until the server is quiet).
import { type LoopLag, LoopLagWatch } from '../core/loop-lag.ts';
import { ChargeFeed } from './charge-feed.ts';
import { ServerCredentials } from './deps/credentials.ts';
import { DependencyClient } from './deps/dependency-client.ts';
import { IdempotencyStore } from './idempotency-store.ts';
import { InFlightHandlers } from './in-flight.ts';

export interface RuntimeOptions {
  /** The server's own timeout for one dependency call. */
  dependencyTimeoutMs: number;
  /** Pass raw dependency error bodies and headers to the model (negative control for the leak scan). */
  leaky: boolean;
  /** How long a request state handed out with input_required stays valid (default: core/defaults.ts). */
  requestStateTtlMs?: number;
  /** Cut search results above this many bytes (seed advice); unlimited by default so size faults stay visible. */
  maxResultBytes?: number;
  /** The dependencies' fetch (deps/world.ts); the global fetch when absent. */
  dependencyFetch?: typeof fetch;
}

export class ServerRuntime {
  readonly deps: DependencyClient;
  readonly notifications = new IdempotencyStore<Record<string, unknown>>();
  readonly inflightPayments = new Map<string, number>();
  readonly handlers = new InFlightHandlers();
  readonly credentials: ServerCredentials;
  /** Every new charge, for the payments feed (modern/payments-feed.ts). */
  readonly charges = new ChargeFeed();
  private lagWatch: LoopLagWatch | undefined;

  constructor(readonly options: RuntimeOptions) {
    this.deps = new DependencyClient(options.dependencyTimeoutMs, options.dependencyFetch);
    this.credentials = new ServerCredentials(this.deps, options.dependencyTimeoutMs);
  }

  /** The loop's stalls since the last call; the first call starts the watch (nothing watched yet: undefined). */
  loopLag(): LoopLag | undefined {
    if (this.lagWatch) return this.lagWatch.read();
    this.lagWatch = new LoopLagWatch();
    return undefined;
  }

  reset(): void {
    this.notifications.clear();
    this.inflightPayments.clear();
    this.charges.clear();
  }
}
