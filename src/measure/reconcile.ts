// Ledger reconciliation: attribute every effect to its op (trace id first, then argsKey) and count what
// happened twice, what happened although the client saw a failure, and what never happened.
//
// What it keeps depends on where the effects come from:
// - Streamed (`liveEffects()`: the reference server pushes each effect to the harness as it happens, over IPC or,
//   for stdio, on stderr). An effect waits under its trace id until its op ends; then the op is folded: it is
//   dropped unless its effect count is not the one its outcome implies (a problem: duplicate, ghost, lost, info
//   with an effect; or a read tool's effect), so the state is the open ops' effects plus the problems, not the
//   run. An effect that comes after its op was folded (a late ghost), or names no op, waits to the end, where one
//   pass over the run's records (one op at a time) attributes it exactly as if it had been there all along.
// - Read only at the end (read-back probes, interception, a remote server's ledger, a replayed history; also a
//   stream that missed an effect the ledger holds): nothing is kept per op during the run; result() reads the
//   run's records once, holding only the ops an effect names.
// Either way the result is the same function of the ops and the ledger (test/unit/measure/families.test.ts).
import type { History, OpOutcome, OpRecord } from '../core/history.ts';
import { opGroups } from '../core/history-records.ts';
import type { Effect } from '../core/ledger.ts';
import type { Accumulator, RunFrame } from './accumulator.ts';

export interface Reconciliation {
  /** Effects in the ledger. */
  effects: number;
  /** Effects matched to an op by trace id. */
  byTraceId: number;
  /** Effects matched to an op by argsKey (no trace id, or an unknown one). */
  byArgsKey: number;
  /** Op ids with more than one effect. */
  duplicateOps: string[];
  /** Op ids with outcome `fail` and at least one effect. */
  ghostOps: string[];
  /** Side-effecting op ids with outcome `ok` and no effect. */
  lostOps: string[];
  /** Op ids with outcome `info` and at least one effect (indeterminate, for the record). */
  infoWithEffectOps: string[];
  /** Ledger `seq` of effects no op claims. */
  unattributedSeqs: number[];
}

export interface ReconcileResult {
  duplicateEffects: number;
  ghostEffects: number;
  lostEffects: number;
  unattributedEffects: number;
  reconciliation: Reconciliation;
  /**
   * Effects per op id, only for ops whose count is not the one their outcome implies (`impliedEffects`): the ops
   * with a problem, and read tools with an effect. Every other op has its implied count (`effectsOf`).
   */
  effectsByOp: Map<string, number>;
}

/** An op's effect count when nothing is wrong: one for a side-effecting op that ended ok, none otherwise. */
function impliedEffects(op: Pick<OpRecord, 'outcome' | 'sideEffecting'>): number {
  return op.outcome === 'ok' && op.sideEffecting ? 1 : 0;
}

/** How many effects the ledger holds for `op`. */
export function effectsOf(
  r: Pick<ReconcileResult, 'effectsByOp'>,
  op: Pick<OpRecord, 'opId' | 'outcome' | 'sideEffecting'>,
): number {
  return r.effectsByOp.get(op.opId) ?? impliedEffects(op);
}

/** What a folded op keeps, and only while its count is not the implied one. */
interface Folded {
  startMs: number;
  outcome: OpOutcome;
  sideEffecting: boolean;
  n: number;
}

/** An effect not attributed yet: what attribution and the unattributed list need, in arrival (ledger) order. */
interface Waiting {
  order: number;
  seq: number;
  traceId?: string;
  argsKey?: string;
}

export class EffectReconciler implements Accumulator<ReconcileResult> {
  private live = false;
  private arrived = 0;
  /** Effects waiting for an op, by trace id (undefined: none); a folded op's late ones wait here to the end. */
  private readonly waiting = new Map<string | undefined, Waiting[]>();
  private readonly notable = new Map<string, Folded>();
  private byTraceId = 0;
  private byArgsKey = 0;

  /** From now on every effect of the run is fed as it happens (`effect`), before any op ends. */
  liveEffects(): void {
    this.live = true;
  }

  effect(e: Effect): void {
    const w: Waiting = { order: this.arrived++, seq: e.seq, traceId: e.traceId, argsKey: e.argsKey };
    const list = this.waiting.get(e.traceId);
    if (list) list.push(w);
    else this.waiting.set(e.traceId, [w]);
  }

  op(o: OpRecord): void {
    if (!this.live) return;
    const mine = this.waiting.get(o.opId)?.length ?? 0;
    this.waiting.delete(o.opId);
    this.byTraceId += mine;
    this.fold(o, mine);
  }

  result(run: RunFrame): ReconcileResult {
    // Streamed effects that are not the ledger read at the end (none should be missing): read them at the end.
    if (this.live && this.arrived !== run.effects.length) this.restart();
    if (!this.live) for (const e of run.effects) this.effect(e);
    const waiting = [...this.waiting.values()].flat().sort((a, b) => a.order - b.order);
    // The run's History: its records are read here, one op at a time, once, and only when something waits (or,
    // with every effect read at the end, to fold every op).
    const unattributedSeqs = waiting.length > 0 || !this.live ? this.attribute(run as History, waiting) : [];
    return this.finish(run.effects.length, unattributedSeqs);
  }

  /** Keeps the op only while its count is not the implied one. */
  private fold(o: Pick<OpRecord, 'opId' | 'startMs' | 'outcome' | 'sideEffecting'>, n: number): void {
    if (n === impliedEffects(o)) this.notable.delete(o.opId);
    else this.notable.set(o.opId, { startMs: o.startMs, outcome: o.outcome, sideEffecting: o.sideEffecting, n });
  }

  /** Back to reading the ledger at the end. */
  private restart(): void {
    this.live = false;
    this.arrived = 0;
    this.waiting.clear();
    this.notable.clear();
    this.byTraceId = 0;
  }

  /**
   * The waiting effects against every ended op: by trace id, else by an argsKey no other op shares; then their ops
   * folded again with them. Only the ops an effect names are held; with every effect read at the end, the others
   * are folded with none as the pass goes.
   */
  private attribute(history: History, waiting: Waiting[]): number[] {
    const ids = new Set(waiting.map((w) => w.traceId));
    const keys = new Set(waiting.map((w) => w.argsKey));
    const held: OpRecord[] = [];
    const byId = new Map<string, OpRecord>();
    /** argsKey -> the one op that has it, or null: a key shared by several ops attributes nothing (a guess). */
    const byKey = new Map<string, OpRecord | null>();
    for (const { op } of opGroups(history)) {
      if (!op) continue;
      const named = ids.has(op.opId);
      const keyed = op.argsKey !== undefined && keys.has(op.argsKey);
      if (named) byId.set(op.opId, op);
      if (keyed) byKey.set(op.argsKey!, byKey.has(op.argsKey!) ? null : op);
      if (named || keyed) held.push(op);
      else if (!this.live) this.fold(op, 0);
    }
    const late = new Map<string, number>();
    const unattributedSeqs: number[] = [];
    for (const w of waiting) {
      let op = w.traceId !== undefined ? byId.get(w.traceId) : undefined;
      if (op) this.byTraceId++;
      else if (w.argsKey !== undefined) {
        op = byKey.get(w.argsKey) ?? undefined;
        if (op) this.byArgsKey++;
      }
      if (op) late.set(op.opId, (late.get(op.opId) ?? 0) + 1);
      else unattributedSeqs.push(w.seq);
    }
    for (const op of held) {
      const count = late.get(op.opId);
      // Streamed: an op an effect names but got none of keeps its fold.
      if (this.live && count === undefined) continue;
      const before = this.live ? (this.notable.get(op.opId)?.n ?? impliedEffects(op)) : 0;
      this.fold(op, before + (count ?? 0));
    }
    return unattributedSeqs;
  }

  private finish(effects: number, unattributedSeqs: number[]): ReconcileResult {
    const duplicateOps: string[] = [];
    const ghostOps: string[] = [];
    const lostOps: string[] = [];
    const infoWithEffectOps: string[] = [];
    const effectsByOp = new Map<string, number>();
    let duplicateEffects = 0;
    // In start order, ties by op id (ops end in any order), as the report lists them.
    const byStart = [...this.notable].sort(([a, x], [b, y]) => x.startMs - y.startMs || (a < b ? -1 : a > b ? 1 : 0));
    for (const [opId, { outcome, sideEffecting, n }] of byStart) {
      effectsByOp.set(opId, n);
      if (n > 1) {
        duplicateEffects += n - 1;
        duplicateOps.push(opId);
      }
      if (outcome === 'fail' && n > 0) ghostOps.push(opId);
      if (outcome === 'info' && n > 0) infoWithEffectOps.push(opId);
      if (sideEffecting && outcome === 'ok' && n === 0) lostOps.push(opId);
    }
    return {
      duplicateEffects,
      ghostEffects: ghostOps.length,
      lostEffects: lostOps.length,
      unattributedEffects: unattributedSeqs.length,
      effectsByOp,
      reconciliation: {
        effects,
        byTraceId: this.byTraceId,
        byArgsKey: this.byArgsKey,
        duplicateOps,
        ghostOps,
        lostOps,
        infoWithEffectOps,
        unattributedSeqs,
      },
    };
  }
}
