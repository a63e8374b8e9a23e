// The dependencies as one world: APIs, their state, the effect ledger, the active faults and the decisions made.
// Handlers are data (one catch-all per API); the behaviour lives in each API's resolver and in the fault chain.
import { type HttpHandler, http } from 'msw';
import type { DecisionRecord } from '../src/core/history.ts';
import type { Effect } from '../src/core/ledger.ts';
import { IDEMPOTENCY_HEADER, TRACE_HEADER } from '../src/core/wire.ts';
import { authApi } from './apis/auth.ts';
import { notificationsApi } from './apis/notifications.ts';
import { paymentsApi } from './apis/payments.ts';
import { reportsApi } from './apis/reports.ts';
import { searchApi } from './apis/search.ts';
import type { DependencyApi } from './apis/types.ts';
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
  readonly state = new DependencyState();
  readonly decisions: DecisionRecord[] = [];
  readonly faults: FaultEngine;
  private readonly decisionListeners = new Set<(d: DecisionRecord) => void>();

  constructor(readonly seed: number) {
    this.faults = new FaultEngine(seed, (d) => {
      this.decisions.push(d);
      for (const listener of this.decisionListeners) listener(d);
    });
  }

  onDecision(listener: (d: DecisionRecord) => void): () => void {
    this.decisionListeners.add(listener);
    return () => this.decisionListeners.delete(listener);
  }

  handle(api: DependencyApi, request: Request): Promise<Response> {
    const ctx = {
      ledger: this.ledger,
      state: this.state,
      traceId: request.headers.get(TRACE_HEADER) ?? undefined,
      idempotencyKey: request.headers.get(IDEMPOTENCY_HEADER) ?? undefined,
    };
    return this.faults.run(api.name, request, () => api.resolve(request, ctx));
  }

  handlers(): HttpHandler[] {
    return APIS.map((api) => http.all(`${api.baseUrl}/*`, ({ request }) => this.handle(api, request)));
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
    this.faults.set([]);
  }
}
