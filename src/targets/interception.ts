// Dependency interception for a foreign Node stdio server (profile `effects.intercept`): the loopback collector
// the msw preload (mocks/intercept-preload.ts) of each server process connects to (src/core/intercept-wire.ts).
// It pushes the desired dependency faults to every live process (a fault window opening or closing), counts the
// faults' hits, and is the run's effect source: each request a dependency accepted is one effect, attributed to
// the op whose unique argument value (`effects.keys`) appears in its URL or body, under the same argsKey the op
// carries, so the ledger's reconcile finds duplicates, ghosts and lost writes as for the reference server.
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { epochMs } from '../core/clock.ts';
import { type HitCounts, sumHits } from '../core/hit-counter.ts';
import {
  type CollectorMessage,
  INTERCEPT_ENV,
  type InterceptConfig,
  type InterceptedDependency,
  type InterceptedRequest,
  type PreloadMessage,
} from '../core/intercept-wire.ts';
import { type Effect, foreignEffectKey } from '../core/ledger.ts';
import { sleep } from '../core/sleep.ts';
import type { EffectSource } from './effect-source.ts';
import { preloadEntry } from './entry.ts';

/** How long a push waits for a process to apply the new fault set before going on without it. */
const APPLY_TIMEOUT_MS = 2000;

interface Connection {
  socket: Socket;
  /** The version this process last applied. */
  applied: number;
  hits: HitCounts;
  onApplied?: () => void;
}

/** The key values of the ops run so far (their `effects.keys` arguments), read when the effects are. */
export type OpKeyValues = () => Iterable<string>;

export class Interception implements EffectSource {
  private readonly server: Server = createServer((socket) => this.accept(socket));
  private readonly connections = new Set<Connection>();
  private readonly requests: { atMs: number; request: InterceptedRequest }[] = [];
  /** Hits of processes that are gone (a crash): they still count. */
  private pastHits: HitCounts[] = [];
  private faults: unknown[] = [];
  private version = 0;
  private hellos = 0;
  failure: string | undefined;

  constructor(
    private readonly dependencies: InterceptedDependency[],
    private readonly seed: number,
    private readonly opKeyValues: OpKeyValues,
    /** The preload module's file (the bundle; tests give a name). */
    private readonly preloadFile: () => string = preloadEntry,
  ) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', resolve);
    });
  }

  /** The environment a server process needs to load the preload and reach this collector. */
  childEnv(base: Record<string, string | undefined>): Record<string, string> {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('interception collector not listening');
    const config: InterceptConfig = {
      collector: { host: '127.0.0.1', port: address.port },
      dependencies: this.dependencies,
      seed: this.seed,
    };
    const preload = pathToFileURL(this.preloadFile()).href;
    const nodeOptions = [base.NODE_OPTIONS, `--import ${JSON.stringify(preload)}`].filter(Boolean).join(' ');
    return { NODE_OPTIONS: nodeOptions, [INTERCEPT_ENV]: JSON.stringify(config) };
  }

  /** Makes `faults` the set of every live process; resolves with when the last applied it (undefined: none runs). */
  async push(faults: unknown[]): Promise<number | undefined> {
    this.faults = faults;
    const version = ++this.version;
    const live = [...this.connections];
    const applied = await Promise.all(
      live.map(async (c) => {
        const done = new Promise<number>((resolve) => {
          c.onApplied = () => resolve(epochMs());
        });
        this.send(c, { type: 'faults', version, faults });
        return Promise.race([done, sleep(APPLY_TIMEOUT_MS, undefined, { unref: true }).then(() => undefined)]);
      }),
    );
    const times = applied.filter((t): t is number => t !== undefined);
    return times.length > 0 ? Math.max(...times) : undefined;
  }

  /** For the report: how many processes ran with the preload, and what it saw. */
  notes(): string[] {
    return [
      `dependency interception: ${this.hellos} process(es) loaded the preload; ${this.requests.length} accepted dependency request(s) recorded`,
    ];
  }

  hits(): HitCounts {
    return sumHits([...this.pastHits, ...[...this.connections].map((c) => c.hits)]);
  }

  /** One effect per accepted request, under the argsKey of the longest op key value found in its URL or body. */
  async effects(): Promise<Effect[]> {
    if (this.hellos === 0) {
      this.failure =
        'dependency interception: no server process loaded the preload (is the target a Node process?), effects unknown';
      return [];
    }
    this.failure = undefined;
    const values = [...new Set(this.opKeyValues())].sort((a, b) => b.length - a.length);
    return this.requests.map(({ atMs, request }, i) => {
      const text = `${safeDecode(request.url)}\n${request.body}`;
      const value = values.find((v) => text.includes(v));
      return {
        seq: i + 1,
        atMs,
        kind: 'intercepted',
        // Found nowhere: a key no op sent, so reconcile counts it unattributed.
        argsKey: foreignEffectKey(value ?? `unattributed ${request.method} ${request.url}`),
        details: { method: request.method, url: request.url, status: request.status, ...(value && { key: value }) },
      };
    });
  }

  async reset(): Promise<void> {
    this.requests.length = 0;
    this.pastHits = [];
    for (const c of this.connections) c.hits = {};
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const connection: Connection = { socket, applied: 0, hits: {} };
    this.connections.add(connection);
    socket.on('error', () => {});
    socket.on('close', () => {
      this.connections.delete(connection);
      this.pastHits.push(connection.hits);
      connection.onApplied?.();
    });
    createInterface({ input: socket }).on('line', (line) => {
      const message = JSON.parse(line) as PreloadMessage;
      switch (message.type) {
        case 'hello':
          this.hellos++;
          this.send(connection, { type: 'faults', version: this.version, faults: this.faults });
          break;
        case 'applied':
          connection.applied = message.version;
          connection.onApplied?.();
          break;
        case 'effect':
          this.requests.push({ atMs: epochMs(), request: message.request });
          this.send(connection, { type: 'ack', n: message.n });
          break;
        case 'hits':
          connection.hits = message.hits;
          break;
      }
    });
  }

  private send(connection: Connection, message: CollectorMessage): void {
    if (!connection.socket.destroyed) connection.socket.write(`${JSON.stringify(message)}\n`);
  }
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
