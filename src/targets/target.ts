// The server under test, whatever runs it: the reference server in a child process (ServerHandle), the reference
// server spawned over stdio by the client's own transport (StdioTarget), or a server someone else runs, reached
// by URL (RemoteTarget). Fault kinds reach it through FaultEnvironment.server. An operation a target cannot do
// throws TargetCapabilityError; the profile loader refuses such profiles up front (target-capabilities.ts).
import type { ControlApi } from '../control/control.ts';

export interface ServerUnderTest extends ControlApi {
  /** Whether its process runs now (a remote server is assumed to). */
  readonly alive: boolean;
  /** A crash: the server process dies now (SIGKILL by default). The ledger and dependency state survive. */
  kill(signal?: NodeJS.Signals): void;
  /** The server is back (or will be on the client's next connect, for stdio), with ledger and state restored. */
  restart(): Promise<void>;
}

/** What a target can do; fault kinds need some of these (target-capabilities.ts says which). */
export type TargetCapability =
  /** Dependency faults, ledger, decisions, reset (IPC or an admin endpoint). */
  | 'control'
  /** kill() and restart(): the harness owns the server's process. */
  | 'restart'
  /** Server-behaviour faults of the reference HTTP server (eviction, stream close, version override). */
  | 'behaviour'
  /** A TCP link a Toxiproxy proxy can sit on. */
  | 'network'
  /** The client's fetch to an HTTP MCP endpoint (status, header, SSE faults). */
  | 'http-edge'
  /** The stdio Transport decorator and the stdio child's output (framing faults, slow writes). */
  | 'stdio-edge';

export const CAPABILITY_WORDS: Record<TargetCapability, string> = {
  control: 'a target with a control channel (IPC or target.admin)',
  restart: 'a target the harness can restart',
  behaviour: 'the reference HTTP server',
  network: 'a target reached over TCP (through a Toxiproxy proxy)',
  'http-edge': 'a target reached over HTTP',
  'stdio-edge': 'a stdio target (kind reference-stdio)',
};

/** An operation the target cannot perform, e.g. kill() on a server outside the harness's process tree. */
export class TargetCapabilityError extends Error {
  constructor(
    readonly operation: string,
    readonly capability: TargetCapability,
    readonly targetKind: string,
  ) {
    super(`${operation} needs ${CAPABILITY_WORDS[capability]}; target kind ${targetKind} cannot do it`);
    this.name = 'TargetCapabilityError';
  }
}
