// The harness's copy of what a server process's dependency world did: effects, dependency state, decisions and
// fault hits, kept from the events the process pushes (events.ts), so they outlive the process and seed its
// successor (hits are summed over every process the run had; a new process counts from zero).
import type { StateRecord } from '../../mocks/state.ts';
import type { WorldSnapshot } from '../../mocks/world.ts';
import type { WorldEvent } from '../control/events.ts';
import type { DecisionRecord } from '../core/history.ts';
import { HitCounter } from '../core/hit-counter.ts';
import type { Effect } from '../core/ledger.ts';

export class WorldMirror {
  readonly effects: Effect[] = [];
  readonly decisions: DecisionRecord[] = [];
  readonly hits = new HitCounter();
  private readonly records = new Map<string, StateRecord>();

  apply(event: WorldEvent): void {
    switch (event.type) {
      case 'effect':
        this.effects.push(event.effect);
        break;
      case 'state':
        this.records.set(`${event.record.api}\u0000${event.record.key}`, event.record);
        break;
      case 'decision':
        this.decisions.push(event.decision);
        break;
      case 'hit':
        this.hits.count(event.faultId);
        break;
    }
  }

  snapshot(): WorldSnapshot {
    return { effects: this.effects.slice(), records: [...this.records.values()], decisions: this.decisions.slice() };
  }

  clear(): void {
    this.effects.length = 0;
    this.decisions.length = 0;
    this.records.clear();
    this.hits.clear();
  }
}
