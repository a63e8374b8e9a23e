// The harness's handle on the reference server, which runs in its own child process (a 20 MB payload or a busy
// loop there must not distort the harness's timings). Control goes over the IPC channel. The dependencies are
// "external" to the server, so their state lives here: the child pushes each effect, state change and decision
// as it happens (WorldMirror), and restart() hands everything, with the run's desired fault state, to a new child
// on the same port.
import type { ChildProcess } from 'node:child_process';
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import {
  type ControlChannel,
  type ControlRequest,
  type InputArgs,
  type OpName,
  type OutputOf,
  send,
} from '../control/control.ts';
import { ControlError } from '../control/op.ts';
import type { Quiescence } from '../control/ops/quiescence.ts';
import type { DecisionRecord, Effects } from '../core/history.ts';
import type { HitCounts } from '../core/hit-counter.ts';
import type { Effect } from '../core/ledger.ts';
import type { LoopLag } from '../core/loop-lag.ts';
import type { BehaviourStats } from '../server/behaviour.ts';
import type { FromChild, ToChild } from '../server/control/ipc.ts';
import type { ReferenceServerOptions } from '../server/reference-server.ts';
import { appliedAtOf, DesiredFaultState } from '../under-test/desired-state.ts';
import type { ServerUnderTest } from '../under-test/target.ts';
import { forkServerChild, running, takeSpareChild, waiting } from './spare-child.ts';
import { WorldMirror } from './world-mirror.ts';

export type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';

/** The reference server's own options, plus how the child's output is handled. */
export interface ServerOptions extends ReferenceServerOptions {
  /** Forward the child's stdout/stderr to this process (default: keep only a tail for error messages). */
  inheritOutput?: boolean;
}

/**
 * A child that sends no `ready` in this long is taken for hung. Booting takes about 0.3 s on a quiet core; at load 20
 * (three profiles at once beside stress-ng) one took over 10 s, the bound before, and failed a run that would have
 * gone on.
 */
const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 2_000;

export class ServerHandle implements ControlChannel, ServerUnderTest {
  /** The reference server's mocks record every effect in the ledger. */
  readonly observesEffects = true;
  private currentUrl = '';
  private currentPort = 0;
  private child: ChildProcess | undefined;
  /** A child forked ahead of a restart, modules loaded, waiting for `start` (see prepareRestart). */
  private standby: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly world = new WorldMirror();
  readonly desired = new DesiredFaultState((request) => this.pushToLive(request));
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (output: unknown) => void; reject: (e: Error) => void }>();
  private outputTail = '';

  private constructor(private readonly opts: ServerOptions) {}

  /**
   * Forks the child and waits for it to listen. An abort (Ctrl-C, SIGTERM) during the boot kills the child at once
   * and rejects: loading the server's modules takes a second or more, which a signal need not wait for.
   */
  static async start(opts: ServerOptions, signal?: AbortSignal): Promise<ServerHandle> {
    const handle = new ServerHandle(opts);
    await handle.spawn(opts.port, signal);
    return handle;
  }

  /** e.g. http://127.0.0.1:PORT/mcp; unchanged by restart(). */
  get url(): string {
    return this.currentUrl;
  }

  get port(): number {
    return this.currentPort;
  }

  /** Pid of the current child, if one is running. */
  get pid(): number | undefined {
    return this.alive ? this.child?.pid : undefined;
  }

  get alive(): boolean {
    return running(this.child);
  }

  /** Replaces the desired dependency faults (pushed now if the child runs, else at its next start). */
  setDependencyFaults(faults: DependencyFaultSpecInput[]): Promise<void> {
    return this.desired.dependencyFaults.replace(faults);
  }

  /** The parent's copy (the source of truth); synced with a live child first so nothing in flight is missed. */
  async ledger(): Promise<Effect[]> {
    return [...(await this.ledgerView())];
  }

  /** The ledger as a view of the parent's spill, read back on each pass (what a run reads). */
  async ledgerView(): Promise<Effects> {
    await this.sync();
    return this.world.effects();
  }

  /** Each effect the child pushes from now on, in the order the parent's copy gets it. */
  onEffect(listener: (effect: Effect) => void): void {
    this.world.onEffect(listener);
  }

  async decisions(): Promise<DecisionRecord[]> {
    await this.sync();
    return this.world.decisions();
  }

  /** Hits streamed by every child so far (synced with the live one first). */
  async faultHits(): Promise<HitCounts> {
    await this.sync();
    return this.world.hits.all();
  }

  /** The live child's handlers; a dead or never-started child has none running. */
  async quiescence(): Promise<Quiescence | undefined> {
    if (!this.alive) return { inFlight: 0, idleMs: Number.POSITIVE_INFINITY, lastEffectAtMs: null };
    try {
      return await this.callChild('quiescence');
    } catch (error) {
      if (!this.alive) return { inFlight: 0, idleMs: Number.POSITIVE_INFINITY, lastEffectAtMs: null };
      throw error;
    }
  }

  /** The live child's stalls (a child started since the last call watched only since it started). */
  async loopLag(): Promise<LoopLag | undefined> {
    return this.alive ? ((await this.callChild('loopLag').catch(() => null)) ?? undefined) : undefined;
  }

  async reset(): Promise<void> {
    this.desired.clear();
    this.world.clear();
    if (this.alive) await this.callChild('reset');
  }

  /** Counts from the current child (they restart at zero with a new child). */
  behaviourStats(): Promise<BehaviourStats> {
    return this.callChild('behaviourStats');
  }

  /**
   * One control operation, as the admin endpoint and the run send them: the ledger and decisions from the parent's
   * copy (the child streams them out and keeps none), a reset of both copies, the rest on the running child.
   */
  call<N extends OpName>(op: N, ...input: InputArgs<N>): Promise<OutputOf<N>> {
    if (op === 'ledger') return this.ledger() as Promise<OutputOf<N>>;
    if (op === 'decisions') return this.decisions() as Promise<OutputOf<N>>;
    if (op === 'reset') return this.reset() as Promise<OutputOf<N>>;
    return this.callChild(op, ...input);
  }

  /** One control operation on the running child, over IPC. */
  private callChild<N extends OpName>(op: N, ...input: InputArgs<N>): Promise<OutputOf<N>> {
    if (!this.alive) return Promise.reject(new Error('server child is not running'));
    const id = this.nextId++;
    return new Promise<OutputOf<N>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (output: unknown) => void, reject });
      this.post({ type: 'request', id, op, input: input[0] }, (error) => {
        this.pending.delete(id);
        reject(error);
      });
    });
  }

  /** A crash: SIGKILL by default. The ledger and dependency state survive here. True when a live child got it. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): boolean {
    return this.alive && (this.child?.kill(signal) ?? false);
  }

  /**
   * Forks the next child now, so a later restart() only has to start listening: loading the server's modules
   * takes seconds on a busy machine, which would otherwise count as downtime. Idempotent.
   */
  prepareRestart(): void {
    if (running(this.standby)) return;
    this.standby = this.forkChild();
  }

  /** A new child on the same port, with the dependency state, ledger, decisions and desired faults restored. */
  async restart(): Promise<void> {
    if (this.alive) {
      this.kill('SIGKILL');
    }
    await this.exited;
    await this.spawn(this.port);
  }

  /** Graceful shutdown; idempotent; SIGKILL after 2 s. */
  async stop(): Promise<void> {
    this.standby?.kill('SIGKILL');
    this.standby = undefined;
    const child = this.child;
    if (!child || !this.alive) return this.exited;
    this.post({ type: 'shutdown' });
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  private async sync(): Promise<void> {
    if (this.alive) await this.callChild('sync').catch(() => undefined);
  }

  /**
   * A change of the desired state, for the running child; a child that dies meanwhile gets it at its restart.
   * Resolves with when the child applied it (its epoch clock), undefined when no child ran.
   */
  private async pushToLive(request: ControlRequest): Promise<number | undefined> {
    if (!this.alive) return undefined;
    try {
      return appliedAtOf(await send(this, request));
    } catch (error) {
      if (this.alive) throw error;
      return undefined;
    }
  }

  /**
   * A message to the running child. One that died meanwhile fails the send (EPIPE): given a callback, Node passes the
   * error there instead of emitting it on the process object, where nothing listens and it would end the harness.
   * The child's exit then tells every waiter why.
   */
  private post(message: ToChild, failed: (error: Error) => void = () => undefined): void {
    if (this.child?.connected) this.child.send(message, (error) => error && failed(error));
  }

  private onMessage(message: FromChild): void {
    switch (message.type) {
      case 'effect':
      case 'state':
      case 'decision':
      case 'hit':
        this.world.apply(message);
        break;
      case 'events':
        for (const event of message.events) this.world.apply(event);
        break;
      case 'response': {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.ok) waiter?.resolve(message.output);
        else
          waiter?.reject(message.status ? new ControlError(message.status, message.error) : new Error(message.error));
        break;
      }
    }
  }

  private forkChild(): ChildProcess {
    return this.keepOutputTail(forkServerChild(this.opts.inheritOutput));
  }

  /** A piped child's last output is kept for the error a failed start or a crash reports. */
  private keepOutputTail(child: ChildProcess): ChildProcess {
    const keepTail = (chunk: Buffer) => {
      this.outputTail = (this.outputTail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', keepTail);
    child.stderr?.on('data', keepTail);
    return child;
  }

  /** A spare forked ahead (targets/spare-child.ts) when this child's output is piped, else a new fork. */
  private newChild(): ChildProcess {
    const spare = this.opts.inheritOutput ? undefined : takeSpareChild();
    return spare ? this.keepOutputTail(spare) : this.forkChild();
  }

  private spawn(port: number | undefined, signal?: AbortSignal): Promise<void> {
    const { inheritOutput: _inherit, ...options } = this.opts;
    const standby = this.standby;
    this.standby = undefined;
    const child = standby && waiting(standby) ? standby : this.newChild();
    this.child = child;
    let ready = false;
    let onEarlyExit: (why: string) => void = () => undefined;
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        for (const waiter of this.pending.values()) waiter.reject(new Error('server child exited'));
        this.pending.clear();
        if (!ready) onEarlyExit(`exited before ready (code ${code}, signal ${signal})`);
        resolve();
      });
    });
    child.on('message', (m: FromChild) => this.onMessage(m));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        settle();
        child.kill('SIGKILL');
        reject(new Error('the run was stopped while the reference server child started'));
      };
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        onEarlyExit = () => undefined;
      };
      const fail = (why: string) => {
        settle();
        child.kill('SIGKILL');
        reject(new Error(`reference server child ${why}${this.outputTail ? `; its output:\n${this.outputTail}` : ''}`));
      };
      onEarlyExit = fail;
      const timer = setTimeout(() => fail(`sent no 'ready' within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('message', (m: FromChild) => {
        if (ready) return;
        if (m.type === 'ready') {
          ready = true;
          settle();
          this.currentUrl = m.url;
          this.currentPort = m.port;
          resolve();
        } else if (m.type === 'fatal') fail(`failed to start: ${m.error}`);
      });
      this.post({
        type: 'start',
        options: { ...options, port },
        snapshot: this.world.snapshot(),
        requests: this.desired.requests(),
      });
    });
  }
}
