// The reference server over stdio: the client's transport spawns it (one child per connection; the stdio edge
// faults act on that pipe, stdio-transport.ts),
// so a crash is a killed child and a restart is the client's next connect. The child owns the msw dependency
// world, so the ledger would die with it: each child streams its effects, state changes and decisions on stderr
// and fault hits (`@faultline {json}` lines, stdio-events.ts) and the harness keeps them (effects and decisions in a
// spill per child, world-mirror.ts, passed on as they come); a new child starts from a snapshot
// file of everything so far (the dependencies are "external": they outlive the server). Control goes to the
// child's admin endpoint (AdminClient; it prints its URL on stderr); each new child gets the run's desired fault
// state on its command line, and every change goes to the live ones.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StateRecord } from '../../mocks/state.ts';
import { AdminClient } from '../control/admin-http.ts';
import { send } from '../control/control.ts';
import type { Quiescence } from '../control/ops/quiescence.ts';
import { parseStdioEvent } from '../control/stdio-events.ts';
import type { FrontEnd } from '../core/front-end.ts';
import type { DecisionRecord } from '../core/history.ts';
import { type HitCounts, sumHits } from '../core/hit-counter.ts';
import type { Effect } from '../core/ledger.ts';
import { type LoopLag, worseLag } from '../core/loop-lag.ts';
import { sleep } from '../core/sleep.ts';
import type { StdioEdgeController } from '../faults/edge/stdio/controller.ts';
import { appliedAtOf, DesiredFaultState, latestOf } from '../under-test/desired-state.ts';
import type { ServerUnderTest } from '../under-test/target.ts';
import { serverEntry } from './entry.ts';
import { type SpawnedChild, signalChild, startFailureWords, stopChildren } from './stdio-children.ts';
import { InterposedStdioTransport } from './stdio-transport.ts';
import { WorldMirror } from './world-mirror.ts';

const ADMIN_LINE = /faultline admin endpoint on (http:\/\/\S+)/;
/** How long a new child waits for the one before it to finish writing its last events (a crash drains at once). */
const SNAPSHOT_DRAIN_MS = 2000;
const ADMIN_TIMEOUT_MS = 10_000;

export interface StdioTargetOptions {
  seed: number;
  dependencyTimeoutMs?: number;
  leaky?: boolean;
  /** The client's stdio framing limit (SDK default 10 MiB). */
  maxBufferBytes?: number;
  /** The MCP-edge seam for stdio: every transport handed out is wrapped by it. */
  edge: StdioEdgeController;
  /** The server's protocol front end (default sdk1: SDK 1.32, 2025-11-25). */
  frontEnd?: FrontEnd;
}

interface Child extends SpawnedChild {
  n: number;
  transport: InterposedStdioTransport;
  admin: Promise<AdminClient>;
  exited: Promise<void>;
  alive: boolean;
  /** Known once it printed its admin URL (the transport forgets its process on close). */
  pid?: number;
  spawnedAt: number;
  /** Spawn to admin URL printed: what starting a server process costs (a crash's floor over stdio). */
  startupMs?: number;
  restoredEffects: number;
  restoredDecisions: number;
  /** Its own effects and decisions (not the restored ones), spilled as they come. */
  world: WorldMirror;
  /** How many of each `world` holds: its admin endpoint's lists past these are what the stream has not brought yet. */
  effects: number;
  decisions: number;
  /** Its own fault hits as streamed (a child counts from zero; the run's are the sum over children). */
  hits: HitCounts;
  /** Its own fault hits as its admin endpoint last answered (ahead of the stream, which can lag). */
  polledHits: HitCounts;
  tail: string;
}

export class StdioTarget implements ServerUnderTest {
  /** The reference server's mocks record every effect in the ledger. */
  readonly observesEffects = true;
  private readonly token = randomBytes(16).toString('hex');
  private readonly dir = mkdtempSync(join(tmpdir(), 'faultline-stdio-'));
  private readonly children: Child[] = [];
  private readonly records = new Map<string, StateRecord>();
  private readonly effectListeners: ((effect: Effect) => void)[] = [];
  private lastEffectAtMs: number | null = null;
  readonly desired = new DesiredFaultState(async (request) =>
    latestOf((await this.eachLive((admin) => send(admin, request))).map(appliedAtOf)),
  );
  private closed = false;
  kills = 0;

  constructor(private readonly options: StdioTargetOptions) {}

  /** How many server processes the client's connects spawned. */
  get spawned(): number {
    return this.children.length;
  }

  get alive(): boolean {
    return this.children.some((c) => c.alive);
  }

  /** Pid of the newest live child. */
  get pid(): number | undefined {
    const child = this.current();
    return child?.pid ?? child?.transport.pid;
  }

  /** A transport that spawns a fresh server child when started: the client calls this on every (re)connect. */
  createTransport = (): Transport => {
    if (this.closed) throw new Error('stdio target closed');
    const n = this.children.length + 1;
    const snapshot = join(this.dir, `snapshot-${n}.json`);
    const previous = this.children.map((c) => c.exited);
    const { seed, dependencyTimeoutMs, leaky, maxBufferBytes, frontEnd } = this.options;
    const transport = new InterposedStdioTransport(
      {
        command: process.execPath,
        args: [
          ...serverEntry('stdio-main'),
          '--seed',
          String(seed),
          ...(dependencyTimeoutMs ? ['--dependency-timeout-ms', String(dependencyTimeoutMs)] : []),
          ...(leaky ? ['--leaky'] : []),
          ...(frontEnd && frontEnd !== 'sdk1' ? ['--front-end', frontEnd] : []),
          ...(this.desired.requests().length > 0 ? ['--control', JSON.stringify(this.desired.requests())] : []),
          '--admin-port',
          '0',
          '--admin-token',
          this.token,
          '--snapshot',
          snapshot,
          '--events',
        ],
        ...(maxBufferBytes && { maxBufferSize: maxBufferBytes }),
      },
      this.options.edge,
    );
    const child: Child = {
      n,
      transport,
      admin: Promise.resolve(undefined as never),
      exited: Promise.resolve(),
      alive: true,
      spawnedAt: performance.now(),
      restoredEffects: 0,
      restoredDecisions: 0,
      world: this.mirror(),
      effects: 0,
      decisions: 0,
      hits: {},
      polledHits: {},
      tail: '',
    };
    this.follow(child, transport.stderr);
    this.children.push(child);
    // The snapshot is written when the child starts, not when its transport is made: the child before it may still
    // be draining its stderr (a charge and its idempotency record written just before it died). Without waiting,
    // the new child starts without that record and charges again under the same key.
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await Promise.race([Promise.all(previous), sleep(SNAPSHOT_DRAIN_MS, undefined, { unref: true })]);
      // Everything before this child: it has not started, so nothing of its own yet.
      const effects = this.allEffects();
      const decisions = this.allDecisions();
      writeFileSync(snapshot, JSON.stringify({ effects, records: [...this.records.values()], decisions }));
      child.restoredEffects = effects.length;
      child.restoredDecisions = decisions.length;
      return start();
    };
    return transport;
  };

  async ledger(): Promise<Effect[]> {
    await this.sync();
    return this.allEffects();
  }

  /** Each effect from now on, as a child streams it (or as the end's sync finds it, when the stream lagged). */
  onEffect(listener: (effect: Effect) => void): void {
    this.effectListeners.push(listener);
    for (const child of this.children) child.world.onEffect(listener);
  }

  async decisions(): Promise<DecisionRecord[]> {
    await this.sync();
    return this.allDecisions();
  }

  async faultHits(): Promise<HitCounts> {
    await this.sync();
    return sumHits(this.children.map(hitsOf));
  }

  /** Over the live children: every handler in flight, and the shortest idle time. */
  async quiescence(): Promise<Quiescence | undefined> {
    const states = (await this.eachLive((admin) => admin.call('quiescence'))).filter(
      (q): q is Quiescence => q !== undefined,
    );
    return {
      inFlight: states.reduce((n, q) => n + q.inFlight, 0),
      idleMs: Math.min(Number.POSITIVE_INFINITY, ...states.map((q) => q.idleMs)),
      lastEffectAtMs: this.lastEffectAtMs,
    };
  }

  /** The worst of the live children's stalls. */
  async loopLag(): Promise<LoopLag | undefined> {
    const lags = await this.eachLive((admin) => admin.call('loopLag').catch(() => null));
    return lags.reduce<LoopLag | undefined>((worst, lag) => worseLag(worst, lag ?? undefined), undefined);
  }

  async reset(): Promise<void> {
    this.desired.clear();
    await this.eachLive((admin) => admin.call('reset'));
    this.lastEffectAtMs = null;
    for (const child of this.children) {
      child.world.clear();
      child.effects = 0;
      child.decisions = 0;
      child.hits = {};
      child.polledHits = {};
      child.restoredEffects = 0;
      child.restoredDecisions = 0;
    }
    this.records.clear();
  }

  /** Why the first connect failed: Faultline's own server, so an internal error, with its exit and stderr. */
  async startFailure(error: unknown): Promise<Error> {
    const child = this.children.at(-1);
    return new Error(`the reference stdio server ${await startFailureWords(child, error, child?.tail ?? '')}`, {
      cause: error,
    });
  }

  /** A crash of the newest child (SIGKILL by default); the client's next connect spawns a new one. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): boolean {
    const killed = signalChild(this.current(), signal);
    if (killed) this.kills++;
    return killed;
  }

  /** Nothing to boot ahead: the client's next connect spawns the child. */
  prepareRestart(): void {}

  /** Nothing to do: over stdio the server comes back when the client reconnects (it spawns a new child). */
  async restart(): Promise<void> {}

  /** Waits for every child to exit (the session closes their transports first), then removes the snapshots. */
  async close(): Promise<void> {
    this.closed = true;
    await stopChildren(this.children);
    rmSync(this.dir, { recursive: true, force: true });
  }

  notes(): string[] {
    const t = this.options.edge.tally;
    const notes = [
      `stdio: the client spawned ${this.spawned} server process(es); ${this.kills} killed by a crash fault`,
    ];
    const startups = this.children.flatMap((c) => (c.startupMs === undefined ? [] : [c.startupMs]));
    if (startups.length > 0) notes.push(`stdio: server process start-up took ${startups.join(', ')} ms`);
    const picked = Object.entries(t.picked).map(([kind, n]) => `${kind} ${n}`);
    if (picked.length > 0) notes.push(`stdio: exchanges spoiled on the pipe: ${picked.join(', ')}`);
    if (t.oversizedLines > 0)
      notes.push(
        `stdio: ${t.oversizedLines} line(s) over the framing limit closed the transport (the SDK killed the child)`,
      );
    if (t.malformedLines > 0) notes.push(`stdio: ${t.malformedLines} malformed line(s) reported by onerror`);
    if (t.otherErrors > 0) notes.push(`stdio: ${t.otherErrors} other transport error(s), e.g. "${t.otherSample}"`);
    return notes;
  }

  private current(): Child | undefined {
    return [...this.children].reverse().find((c) => c.alive);
  }

  private allEffects(): Effect[] {
    return this.children.flatMap((c) => [...c.world.effects()]);
  }

  private allDecisions(): DecisionRecord[] {
    return this.children.flatMap((c) => c.world.decisions());
  }

  /** A child's spill, passing each effect on to the listeners. */
  private mirror(): WorldMirror {
    const world = new WorldMirror();
    for (const listener of this.effectListeners) world.onEffect(listener);
    return world;
  }

  /** One of a child's own effects or decisions, streamed or found by sync. */
  private keep(
    child: Child,
    event: { type: 'effect'; effect: Effect } | { type: 'decision'; decision: DecisionRecord },
  ): void {
    if (event.type === 'effect') {
      child.effects++;
      this.lastEffectAtMs = event.effect.atMs;
    } else child.decisions++;
    child.world.apply(event);
  }

  /** The stderr pushes can lag: read each live child's own lists from its admin endpoint. */
  private async sync(): Promise<void> {
    await Promise.all(
      this.children
        .filter((c) => c.alive)
        .map(async (child) => {
          try {
            const admin = await child.admin;
            const [effects, decisions, hits] = await Promise.all([
              admin.call('ledger'),
              admin.call('decisions'),
              admin.call('faultHits'),
            ]);
            // The stream brings a child's list in order: what it has not brought yet is the list's tail.
            for (const effect of effects.slice(child.restoredEffects + child.effects))
              this.keep(child, { type: 'effect', effect });
            for (const decision of decisions.slice(child.restoredDecisions + child.decisions))
              this.keep(child, { type: 'decision', decision });
            child.polledHits = hits;
          } catch {
            // It died meanwhile: what it streamed is all there is.
          }
        }),
    );
  }

  /** `op` on every live child; a child that dies meanwhile answers undefined. */
  private eachLive<T>(op: (admin: AdminClient) => Promise<T>): Promise<(T | undefined)[]> {
    return Promise.all(
      this.children
        .filter((c) => c.alive)
        .map(async (child) => {
          try {
            return await op(await child.admin);
          } catch (error) {
            if (child.alive) throw error;
            return undefined;
          }
        }),
    );
  }

  private follow(child: Child, stderr: Readable): void {
    let found: (admin: AdminClient) => void = () => undefined;
    let lost: (error: Error) => void = () => undefined;
    child.admin = new Promise<AdminClient>((resolve, reject) => {
      found = resolve;
      lost = reject;
    });
    child.admin.catch(() => undefined);
    const timer = setTimeout(
      () => lost(new Error(`stdio server ${child.n} printed no admin URL within ${ADMIN_TIMEOUT_MS} ms`)),
      ADMIN_TIMEOUT_MS,
    );
    timer.unref();
    child.exited = new Promise<void>((resolve) => {
      stderr.once('end', () => {
        child.alive = false;
        clearTimeout(timer);
        lost(new Error(`stdio server ${child.n} exited${child.tail ? `; its stderr:\n${child.tail}` : ''}`));
        resolve();
      });
    });
    const lines = createInterface({ input: stderr, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => {
      const event = parseStdioEvent(line);
      if (event?.type === 'effect' || event?.type === 'decision') this.keep(child, event);
      else if (event?.type === 'state') this.records.set(`${event.record.api}\u0000${event.record.key}`, event.record);
      else if (event?.type === 'hit') child.hits[event.faultId] = (child.hits[event.faultId] ?? 0) + 1;
      else {
        const admin = ADMIN_LINE.exec(line);
        if (admin) {
          clearTimeout(timer);
          child.pid = child.transport.pid ?? undefined;
          child.startupMs = Math.round(performance.now() - child.spawnedAt);
          found(new AdminClient(admin[1], this.token));
        } else child.tail = `${child.tail}${line}\n`.slice(-4000);
      }
    });
  }
}

/** Both are counts of the same hits, one maybe behind: the larger is the truth. */
function hitsOf(child: Child): HitCounts {
  const hits = { ...child.hits };
  for (const [id, n] of Object.entries(child.polledHits)) hits[id] = Math.max(hits[id] ?? 0, n);
  return hits;
}
