// The client's current MCP session. Renewal is single-flight: when many in-flight ops see the same session
// die (404, transport loss) only the first opens a new one, the rest reuse it.
import { epochMs } from '../core/clock.ts';
import type { DiscoveryProbe, DiscoveryRecord } from '../core/history.ts';
import { Connection, type ConnectionOptions, type OpenFailure } from './connection.ts';

/** One initialize: what was offered, what was agreed, or why it failed. */
export interface Negotiation {
  generation: number;
  atMs: number;
  offered?: string;
  negotiated?: string;
  error?: string;
  /** The `server/discover` probes of this connect (a negotiating SDK 2.4 client). */
  probes?: DiscoveryProbe[];
}

export class Session {
  private current?: Promise<Connection>;
  private generation = 0;
  private closed = false;
  renewals = 0;
  /** Every initialize this session ran, in order (the report shows the negotiated versions). */
  readonly negotiations: Negotiation[] = [];

  constructor(readonly options: ConnectionOptions) {}

  /** The live connection and its generation (pass the generation back to renew()). */
  async get(): Promise<{ connection: Connection; generation: number }> {
    if (this.closed) throw new Error('Not connected: the session was closed');
    if (!this.current) this.current = this.open();
    const generation = this.generation;
    return { connection: await this.current, generation };
  }

  /** Replaces the session that `generation` referred to, unless someone already did. */
  async renew(generation: number): Promise<void> {
    if (generation !== this.generation || this.closed) return;
    this.generation++;
    this.renewals++;
    const old = this.current;
    this.current = this.open();
    old?.then((c) => c.close()).catch(() => {});
    await this.current.catch(() => {});
  }

  /** The connects that probed `server/discover`, for the history (empty when none did). */
  discoveries(): DiscoveryRecord[] {
    return this.negotiations
      .filter((n) => n.probes !== undefined)
      .map((n) => ({
        atMs: n.atMs,
        probes: n.probes!,
        ...(n.negotiated !== undefined && { negotiated: n.negotiated }),
        ...(n.error !== undefined && { error: n.error }),
      }));
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    await current?.then((c) => c.close()).catch(() => {});
  }

  private open(): Promise<Connection> {
    const opening = Connection.open(this.options);
    const generation = this.generation;
    opening.then(
      (c) =>
        this.negotiations.push({
          generation,
          atMs: epochMs(),
          offered: c.offeredVersion,
          negotiated: c.protocolVersion,
          ...(c.probes.length > 0 && { probes: c.probes }),
        }),
      (e: OpenFailure) =>
        this.negotiations.push({
          generation,
          atMs: epochMs(),
          offered: e?.offeredVersion,
          error: e?.message ?? String(e),
          ...(e?.probes?.length && { probes: e.probes }),
        }),
    );
    // A failed open must not poison later calls: forget it so the next get() tries again.
    opening.catch(() => {
      if (this.current === opening) this.current = undefined;
    });
    return opening;
  }
}
