// How `faultline record` reaches a server of one target kind (one file per kind; index.ts maps the kinds the target
// flags can name to theirs): directly, no proxy and no faults, as a run would reach it otherwise.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { PlaceholderValues } from '../../targets/placeholders.ts';

export interface RecordedServer {
  /** A new transport to the server: a stdio server is spawned once per session. */
  open: () => Transport;
  /** What the cassette's header names as its target. */
  name: string;
}

export interface RecordContext {
  placeholders: PlaceholderValues;
  /** A URL outside loopback may be reached (--allow-non-loopback). */
  allowNonLoopback: boolean;
}

export type RecordTarget<T> = (target: T, ctx: RecordContext) => RecordedServer;
