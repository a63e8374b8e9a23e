// The dependencies as one world: APIs, their state, the effect ledger, the active faults, the decisions made and
// what each fault window did (hits, by window id: the dependency faults' and the server behaviours').
// One resolver per route of each API (plus one per API for paths it does not serve), every one of them wrapped by
// the fault engine, answering the reference server's fetch directly (direct-fetch.ts).
import type { DecisionRecord } from '../src/core/history.ts';
import { HitCounter } from '../src/core/hit-counter.ts';
import type { Effect } from '../src/core/ledger.ts';
import { ATTEMPT_HEADER, IDEMPOTENCY_HEADER, TRACE_HEADER } from '../src/core/wire.ts';
import { authApi } from './apis/auth.ts';
import { notificationsApi } from './apis/notifications.ts';
import { paymentsApi } from './apis/payments.ts';
import { reportsApi } from './apis/reports.ts';
import { searchApi } from './apis/search.ts';
import { type DependencyApi, type Resolver, unknownEndpoint } from './apis/types.ts';
import { directFetch } from './direct-fetch.ts';
import { FaultEngine } from './faults/engine.ts';
import { EffectLedger } from './ledger.ts';
import { DependencyState, type StateRecord } from './state.ts';

export const APIS: readonly DependencyApi[] = [paymentsApi, notificationsApi, searchApi, reportsApi, authApi];

/** What must survive a server crash: the dependencies are "external". */
export interface WorldSnapshot {
  effects: Effect[];
  records: StateRecord[];
  decisions: DecisionRecord[];
}

export class DependencyWorld {
  readonly ledger = new EffectLedger();
  readonly state = new DependencyState(Object.assign({}, ...APIS.map((api) => api.tables)));
  readonly decisions: DecisionRecord[] = [];
  readonly faults: FaultEngine;
  /** Hits of every fault window in this process, by window id (reset with the world). */
  readonly hits = new HitCounter();
  private readonly decisionListeners = new Set<(d: DecisionRecord) => void>();
  /** False once streamed out (the harness keeps the decisions). */
  private keepsDecisions = true;
  /** Each route's faulty resolver by `METHOD url` (no query), and each API's catch-all by its base URL. */
  private readonly routes = new Map<string, (request: Request) => Promise<Response>>();
  private readonly catchAlls: [base: string, serve: (request: Request) => Promise<Response>][] = [];
  /** The reference server's fetch for its dependency calls (mocks/direct-fetch.ts). */
  readonly fetch = directFetch((request) => {
    const url = new URL(request.url);
    const route = this.routes.get(`${request.method} ${url.origin}${url.pathname}`);
    return (route ?? this.catchAlls.find(([base]) => request.url.startsWith(base))?.[1])?.(request);
  });

  constructor(readonly seed: number) {
    this.faults = new FaultEngine(
      seed,
      (d) => {
        if (this.keepsDecisions) this.decisions.push(d);
        for (const listener of this.decisionListeners) listener(d);
      },
      this.hits,
    );
    for (const api of APIS) {
      for (const route of api.routes)
        this.routes.set(`${route.method} ${api.baseUrl}${route.path}`, this.serve(api, route.resolve));
      this.catchAlls.push([`${api.baseUrl}/`, this.serve(api, unknownEndpoint)]);
    }
  }

  onDecision(listener: (d: DecisionRecord) => void): () => void {
    this.decisionListeners.add(listener);
    return () => this.decisionListeners.delete(listener);
  }

  /** `resolve` with this world's ledger and state, behind the active faults of `api`. */
  private serve(api: DependencyApi, resolve: Resolver) {
    const faulty = this.faults.wrap(api.name, async (request) =>
      resolve(request, {
        ledger: this.ledger,
        state: this.state,
        traceId: request.headers.get(TRACE_HEADER) ?? undefined,
        attempt: attemptOf(request.headers.get(ATTEMPT_HEADER)),
        idempotencyKey: request.headers.get(IDEMPOTENCY_HEADER) ?? undefined,
      }),
    );
    return faulty;
  }

  /**
   * The harness keeps the ledger and the decisions from now on (control/events.ts pushes each as it happens), so this
   * process keeps none: what stays per op is the dependencies' own state (a charge per idempotency key, as a real
   * payment provider keeps it), which their answers need.
   */
  streamOut(): void {
    this.ledger.streamOut();
    this.keepsDecisions = false;
    this.decisions.length = 0;
  }

  snapshot(): WorldSnapshot {
    return { effects: this.ledger.list(), records: this.state.records(), decisions: this.decisions.slice() };
  }

  restore(snapshot: WorldSnapshot): void {
    this.ledger.restore(snapshot.effects);
    this.state.restore(snapshot.records);
    this.decisions.splice(0, this.decisions.length, ...snapshot.decisions);
  }

  /** Ledger, dependency state, decisions and faults back to empty. */
  reset(): void {
    this.ledger.reset();
    this.state.reset();
    this.decisions.length = 0;
    this.faults.reset();
  }
}

/** The attempt header's number; undefined when absent or not a positive integer. */
function attemptOf(header: string | null): number | undefined {
  const n = Number(header);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
