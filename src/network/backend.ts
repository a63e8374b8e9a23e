// The network seam (L4) behind one interface: wherever the Toxiproxy server runs, the run gets an API to drive
// and an address per proxied upstream for the MCP client to dial.
import type { DecisionSink } from '../core/random.ts';
import type { ProxyInfo, ToxiproxyApi } from './toxiproxy-api.ts';

export type BackendKind = 'embedded' | 'external' | 'container';

/** An upstream on this machine that the proxy should forward to. */
export interface Upstream {
  /** Defaults to 127.0.0.1. */
  host?: string;
  port: number;
}

export interface ProxyEndpoint {
  name: string;
  /** Where the MCP client connects (for the container backend, the mapped port on the container host). */
  host: string;
  port: number;
  /** The proxy as the server reported it on creation (its `upstream` is as the server dials it). */
  proxy: ProxyInfo;
}

/**
 * What the embedded server counts of its own faults, read in process. Real Toxiproxy's API has no such counts (and
 * the embedded API stays indistinguishable from it), so external and container backends have none: their hits are
 * "cannot count".
 */
export interface NetworkCounters {
  /** Times the toxic acted (chunks delayed, throttled, sliced or dropped; connections cut, reset or closed late). */
  toxicHits(proxy: string, toxic: string): number;
  /** Live connections the proxy closed when it was stopped (disabled, moved, removed) so far. */
  closedByStop(proxy: string): number;
}

export interface NetworkBackend {
  readonly kind: BackendKind;
  /** Base URL of the Toxiproxy HTTP API, e.g. http://127.0.0.1:8474 */
  readonly apiUrl: string;
  /** Typed client on apiUrl: the timeline driver adds and removes toxics with it. */
  readonly api: ToxiproxyApi;
  /** True when every random draw (toxicity, jitter, slicer) comes from the run seed and reaches onDecision. */
  readonly deterministic: boolean;
  /** The embedded server's own counts of what its faults did; absent when the server cannot be asked. */
  readonly counters?: NetworkCounters;
  /** Creates (replacing any proxy of that name) a proxy in front of `upstream`; answers where to connect. */
  createProxy(name: string, upstream: Upstream): Promise<ProxyEndpoint>;
  /** Removes what this backend created or started. Safe to call twice. */
  close(): Promise<void>;
}

export interface NetworkBackendOptions {
  /** Seed of the embedded server's draws (ignored by real Toxiproxy, whose -seed does nothing since 2.9). */
  seed?: number;
  /** Receives the embedded server's decision records. */
  onDecision?: DecisionSink;
  /** Accept an external API URL or listen host that is not loopback. */
  allowNonLoopback?: boolean;
  /** External: how long /version may take to answer (default 2000 ms). */
  versionTimeoutMs?: number;
  /** External: the host its proxies listen on (default: the API URL's host). */
  listenHost?: string;
  /** External: the host the server dials to reach this machine's upstreams (default 127.0.0.1). */
  upstreamHost?: string;
  /** Container: how long detecting a container runtime may take (default 1000 ms). */
  runtimeTimeoutMs?: number;
  /** Container: image (default ghcr.io/shopify/toxiproxy:2.12.0). */
  image?: string;
}

/** A backend could not start. The message is one line meant for the user; the CLI prints it without a stack. */
export class NetworkBackendError extends Error {
  readonly userFacing = true;
  constructor(
    message: string,
    readonly backend: BackendKind,
  ) {
    super(message);
    this.name = 'NetworkBackendError';
  }
}

/** No Docker (or compatible) engine is reachable for the container backend. */
export class ContainerRuntimeUnavailableError extends NetworkBackendError {
  constructor(detail: string) {
    super(
      `toxiproxy container backend: no container runtime found (${detail}); use --toxiproxy embedded or start Docker`,
      'container',
    );
    this.name = 'ContainerRuntimeUnavailableError';
  }
}
