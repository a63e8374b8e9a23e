// How a target kind starts its server for a run: one file per kind (the registry, index.ts, maps each kind of the
// profile's `target:` block to its start, so adding a kind is its file and its line there). A kind either hands
// the client a pipe (the client spawns the server over stdio; no TCP link to put a proxy on) or an upstream URL
// that the run puts a Toxiproxy proxy in front of.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Pairing } from '../../core/pairing.ts';
import type { StdioEdgeController } from '../../faults/edge/stdio/controller.ts';
import type { Profile } from '../../profile/schema.ts';
import type { EffectSink, EffectSource } from '../../targets/effect-source.ts';
import type { OpKeyValues } from '../../targets/interception.ts';
import type { PlaceholderValues } from '../../targets/placeholders.ts';
import type { ServerUnderTest } from '../../under-test/target.ts';

export type StdioServer = ServerUnderTest & {
  createTransport: () => Transport;
  /** Why the first connect failed, said with the process's exit and the end of its stderr. */
  startFailure?(error: unknown): Promise<Error>;
  notes(): string[];
  close(): Promise<void>;
};

export interface StartContext {
  seed: number;
  pairing: Pairing;
  /** The stdio edge's interposer (the seam of a pipe's faults). */
  stdio: StdioEdgeController;
  /** What `${tmpdir}` and `${env:NAME}` stand for in a foreign target. */
  placeholders: PlaceholderValues;
  /** The profile's file: a cassette resolves against it. */
  profileFile?: string;
  /** The profile's `effects.intercept` (a stdio server's dependency interception), if any. */
  intercept?: NonNullable<Profile['effects']>['intercept'];
  /** The `effects.keys` values of the ops run so far: intercepted requests are attributed by them. */
  opKeyValues: OpKeyValues;
  /** A url target may be outside loopback. */
  allowNonLoopback: boolean;
  /** Other shards share a remote server: it is not reset. */
  keysScoped: boolean;
  /** The run was stopped: a reference server child still booting is killed, not waited for. */
  signal?: AbortSignal;
}

/** Where a foreign server's effects come in, once the run knows its source. */
interface EffectsDoor {
  sink?: EffectSink;
  /** The dependency interception, a source by itself. */
  interception?: EffectSource;
}

/** A server the client spawns and talks to over its pipe. */
export interface PipeStart extends EffectsDoor {
  link: 'pipe';
  server: StdioServer;
  mcpUrl: string;
  /** The client speaks the pairing's SDK 2.4 era (the reference server); a foreign server gets SDK 1.32. */
  pairedClient: boolean;
}

/** A server reached over HTTP at `upstream` (through a proxy in front of it when the run has network faults). */
export interface LinkStart extends EffectsDoor {
  link: 'tcp';
  server: ServerUnderTest;
  upstream: URL;
  headers?: Record<string, string>;
  /** The user's mistake a failed first connect is (an address they gave): one line, not an internal error. */
  connectFailure?(error: Error): Error;
  notes(): string[];
  stop(): Promise<void>;
}

export type StartedServer = PipeStart | LinkStart;

export type TargetStart<T> = (target: T, ctx: StartContext) => Promise<StartedServer>;
