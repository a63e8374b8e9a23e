// The harness's copy of what a server process's dependency world did: effects, dependency state, decisions and
// fault hits, kept from the events the process pushes (events.ts), so they outlive the process and seed its
// successor (hits are summed over every process the run had; a new process counts from zero). Effects, state and
// decisions go to spill files as they arrive (core/line-spill.ts), effects to one of their own, and are read back at
// the end of the run (effects as a view the run's readers pass over, never an array) or for a successor, so a long
// run holds nothing per op here.
import type { StateRecord } from '../../mocks/state.ts';
import type { WorldSnapshot } from '../../mocks/world.ts';
import type { WorldEvent } from '../control/events.ts';
import type { DecisionRecord, Effects } from '../core/history.ts';
import { HitCounter } from '../core/hit-counter.ts';
import type { Effect } from '../core/ledger.ts';
import { LineSpill } from '../core/line-spill.ts';

type Spilled = Exclude<WorldEvent, { type: 'hit' | 'effect' }>;

export class WorldMirror {
  readonly hits = new HitCounter();
  private events = new LineSpill('world');
  private effectLog = new LineSpill('effects');
  private readonly effectListeners: ((effect: Effect) => void)[] = [];

  apply(event: WorldEvent): void {
    if (event.type === 'hit') this.hits.count(event.faultId);
    else if (event.type === 'effect') {
      this.effectLog.append(event.effect);
      for (const listener of this.effectListeners) listener(event.effect);
    } else this.events.append(event);
  }

  /** Each effect from now on, as it arrives. */
  onEffect(listener: (effect: Effect) => void): void {
    this.effectListeners.push(listener);
  }

  /** Every effect so far, in order: read back from the spill on each pass, never held. */
  effects(): Effects {
    const log = this.effectLog;
    const length = log.lines;
    return { length, [Symbol.iterator]: () => log.all(length) as Iterator<Effect> };
  }

  decisions(): DecisionRecord[] {
    const decisions: DecisionRecord[] = [];
    for (const e of this.spilled()) if (e.type === 'decision') decisions.push(e.decision);
    return decisions;
  }

  /** Everything a successor starts from: every effect and decision in order, the latest record of each key. */
  snapshot(): WorldSnapshot {
    const decisions: DecisionRecord[] = [];
    const records = new Map<string, StateRecord>();
    for (const event of this.spilled()) {
      if (event.type === 'decision') decisions.push(event.decision);
      else records.set(`${event.record.api}\u0000${event.record.key}`, event.record);
    }
    return { effects: [...this.effects()], records: [...records.values()], decisions };
  }

  private spilled(): Iterable<Spilled> {
    return this.events.all() as Iterable<Spilled>;
  }

  clear(): void {
    this.events = new LineSpill('world');
    this.effectLog = new LineSpill('effects');
    this.hits.clear();
  }
}
