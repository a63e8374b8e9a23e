// The server under test, whatever runs it: the reference server in a child process (ServerHandle), the reference
// server spawned over stdio by the client's own transport (StdioTarget), or a server someone else runs, reached
// by URL (RemoteTarget). Fault kinds reach it through FaultEnvironment.server. An operation a target cannot do
// throws TargetCapabilityError; the profile loader refuses such profiles up front (capabilities.ts).

import type { Quiescence } from '../control/ops/quiescence.ts';
import type { DecisionRecord, Effects } from '../core/history.ts';
import type { HitCounts } from '../core/hit-counter.ts';
import type { Effect } from '../core/ledger.ts';
import type { LoopLag } from '../core/loop-lag.ts';
import type { DesiredFaultState } from './desired-state.ts';

export interface ServerUnderTest {
  /** The run's desired dependency faults and server behaviours; the target pushes them to its server processes. */
  readonly desired: DesiredFaultState;
  /** Every effect so far (the harness's copy, synced with live processes first). */
  ledger(): Promise<Effect[]>;
  /**
   * The same, as a view read back from the harness's spill on each pass, where the target spills its effects (the
   * reference server child): what a run reads, so a long run never holds its effects. ledger() stays an array there.
   */
  ledgerView?(): Promise<Effects>;
  /** Whether ledger() can see this server's effects at all; when false, every effect metric is n/a. */
  readonly observesEffects: boolean;
  /**
   * Calls `listener` with each effect as the ledger gets it, where the server pushes them as they happen (the
   * reference server child); absent where the ledger is only read at the end (a remote server, read-back probes).
   */
  onEffect?(listener: (effect: Effect) => void): void;
  decisions(): Promise<DecisionRecord[]>;
  /** What each dependency and behaviour fault window did so far, by window id, over every process of the run. */
  faultHits(): Promise<HitCounts>;
  /** Tool handlers in flight and time since the last activity; undefined when the target cannot tell. */
  quiescence(): Promise<Quiescence | undefined>;
  /**
   * How late the server's event loop ran since the last call (the first call starts watching); the worst of its
   * processes. Undefined when the target cannot tell (a server we did not write) or watched nothing yet.
   */
  loopLag(): Promise<LoopLag | undefined>;
  /** Ledger, dependency state, idempotency store and every fault (the desired state too) back to empty. */
  reset(): Promise<void>;
  /** Whether its process runs now (a remote server is assumed to). */
  readonly alive: boolean;
  /**
   * A crash: the server process dies now (SIGKILL by default). The ledger and dependency state survive. True when a
   * live process got the signal (false when none ran).
   */
  kill(signal?: NodeJS.Signals): boolean;
  /** Gets what a restart needs ready ahead of time (a booted standby process); nothing where there is nothing. */
  prepareRestart(): void;
  /** The server is back (or will be on the client's next connect, for stdio), with ledger, state and faults. */
  restart(): Promise<void>;
}

/** What a target can do; fault kinds declare which of these they need (`needs`, faults/kind.ts). */
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
  /** The interposer on the pipe to a stdio child (framing faults, slow writes, lost or cut messages). */
  | 'stdio-edge';

export const CAPABILITY_WORDS: Record<TargetCapability, string> = {
  control: 'a target with a control channel (IPC or target.admin)',
  restart: 'a target the harness can restart',
  behaviour: 'the reference HTTP server',
  network: 'a target reached over TCP (through a Toxiproxy proxy)',
  'http-edge': 'a target reached over HTTP',
  'stdio-edge': 'a stdio target (kind reference-stdio or stdio)',
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
