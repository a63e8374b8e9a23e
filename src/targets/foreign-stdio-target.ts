// A stdio MCP server the harness did not write (kind stdio): the client's transport spawns the profile's command
// (the stdio edge faults act on that pipe, stdio-transport.ts), one process per connection, so a crash is a killed process and a restart is the client's next connect.
// It has no control channel: no decisions, no ledger; its effects come from an attached effect source, if any
// (effect-source.ts). With dependency interception (interception.ts) every process starts with the msw preload:
// the dependency faults of the desired state reach its outbound HTTP, and the interception is its effect source.
// Its stderr is kept (the last lines) for the report and for errors.
import { createInterface } from 'node:readline';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Quiescence } from '../control/ops/quiescence.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { HitCounts } from '../core/hit-counter.ts';
import type { Effect } from '../core/ledger.ts';
import type { LoopLag } from '../core/loop-lag.ts';
import type { StdioEdgeController } from '../faults/edge/stdio/controller.ts';
import { DesiredFaultState } from '../under-test/desired-state.ts';
import { type ServerUnderTest, TargetCapabilityError } from '../under-test/target.ts';
import { type EffectSink, type EffectSource, ForeignEffects } from './effect-source.ts';
import type { Interception } from './interception.ts';
import { type SpawnedChild, signalChild, startFailureWords, stopChildren } from './stdio-children.ts';
import { InterposedStdioTransport } from './stdio-transport.ts';

const STDERR_TAIL_CHARS = 4000;

/** The server did not come up: one line for the user, with what it said on stderr. */
class TargetStartError extends Error {
  readonly userFacing = true;
  constructor(message: string) {
    super(message);
    this.name = 'TargetStartError';
  }
}

export interface ForeignStdioSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  maxBufferBytes?: number;
}

interface Child extends SpawnedChild {
  transport: InterposedStdioTransport;
  pid?: number;
  alive: boolean;
  exited: Promise<void>;
}

export class ForeignStdioTarget implements ServerUnderTest, EffectSink {
  private readonly children: Child[] = [];
  private readonly effects = new ForeignEffects();
  /** The last lines the server wrote on stderr (all processes, in order). */
  stderrTail = '';
  kills = 0;
  private closed = false;
  readonly desired = new DesiredFaultState(async (request) => {
    if (request.op === 'setDependencyFaults' && this.interception) return this.interception.push(request.input);
    throw new TargetCapabilityError(
      this.interception ? 'behaviour faults' : 'dependency and behaviour faults',
      'control',
      'stdio',
    );
  });

  constructor(
    private readonly spec: ForeignStdioSpec,
    private readonly edge: StdioEdgeController,
    /** The dependency interception every process is started with (profile `effects.intercept`), if any. */
    private readonly interception?: Interception,
  ) {}

  /** Spawns a fresh server process when started: the client calls this on every (re)connect. */
  createTransport = (): Transport => {
    if (this.closed) throw new Error('stdio target closed');
    const { command, args, cwd, maxBufferBytes } = this.spec;
    const env = this.interception ? { ...this.spec.env, ...this.interception.childEnv(this.spec.env) } : this.spec.env;
    const transport = new InterposedStdioTransport(
      { command, args, env, ...(cwd && { cwd }), ...(maxBufferBytes && { maxBufferSize: maxBufferBytes }) },
      this.edge,
    );
    const child: Child = { transport, alive: true, exited: Promise.resolve() };
    const stderr = transport.stderr;
    child.exited = new Promise<void>((resolve) => {
      stderr.once('end', () => {
        child.alive = false;
        resolve();
      });
    });
    createInterface({ input: stderr, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      this.stderrTail = `${this.stderrTail}${line}\n`.slice(-STDERR_TAIL_CHARS);
    });
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      child.pid = transport.pid;
    };
    this.children.push(child);
    return transport;
  };

  /**
   * Why the first connect failed, in one line: the process's exit (code or signal) or the client's error, and the
   * last lines of its stderr, instead of the SDK's bare "Connection closed".
   */
  async startFailure(error: unknown): Promise<Error> {
    const shown = [this.spec.command, ...this.spec.args].join(' ').slice(0, 120);
    const words = await startFailureWords(this.children.at(-1), error, this.stderrTail);
    return new TargetStartError(`target ${shown}: the server ${words}`);
  }

  get spawned(): number {
    return this.children.length;
  }

  get alive(): boolean {
    return this.children.some((c) => c.alive);
  }

  get observesEffects(): boolean {
    return this.effects.observable;
  }

  attachEffects(source: EffectSource): void {
    this.effects.attachEffects(source);
  }

  ledger(): Promise<Effect[]> {
    return this.effects.ledger();
  }

  /** No control channel: the server's own random draws are not in the decision log. */
  async decisions(): Promise<DecisionRecord[]> {
    return [];
  }

  /** The intercepted dependency faults' hits; without interception none reach it (the loader refuses them). */
  async faultHits(): Promise<HitCounts> {
    return this.interception?.hits() ?? {};
  }

  /** The harness cannot see its handlers. */
  async quiescence(): Promise<Quiescence | undefined> {
    return undefined;
  }

  /** Its loop is its own. */
  async loopLag(): Promise<LoopLag | undefined> {
    return undefined;
  }

  async reset(): Promise<void> {
    this.desired.clear();
    await this.effects.reset();
  }

  /** A crash of the newest live process (SIGKILL by default); the client's next connect spawns a new one. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): boolean {
    const killed = signalChild(
      [...this.children].reverse().find((c) => c.alive),
      signal,
    );
    if (killed) this.kills++;
    return killed;
  }

  /** Nothing to boot ahead: the client's next connect spawns the process. */
  prepareRestart(): void {}

  /** Nothing to do: over stdio the server comes back when the client reconnects. */
  async restart(): Promise<void> {}

  /** Waits for every process to exit (the session closes their transports first), killing any that lingers. */
  async close(): Promise<void> {
    this.closed = true;
    await stopChildren(this.children);
    await this.interception?.close();
  }

  notes(): string[] {
    const t = this.edge.tally;
    const notes = [
      `stdio: the client spawned ${this.spawned} server process(es); ${this.kills} killed by a crash fault`,
      ...(this.interception?.notes() ?? []),
    ];
    if (t.oversizedLines > 0)
      notes.push(`stdio: ${t.oversizedLines} line(s) over the framing limit closed the transport`);
    if (t.malformedLines > 0) notes.push(`stdio: ${t.malformedLines} malformed line(s) reported by onerror`);
    if (t.otherErrors > 0) notes.push(`stdio: ${t.otherErrors} other transport error(s), e.g. "${t.otherSample}"`);
    return notes;
  }
}
