// Applies and removes faults at their planned moments, with the parameters the profile loader parsed.
//
// Every window is part of the decision log (stream `timeline`): its fault (seam, kind, parameters) and planned
// on and off times, whether or not anything random happens in it, so two profiles with different faults never
// share a decision-log hash.
//
// Window times are when the seam had the fault in place: t_on once apply resolved; t_off when the seam took it
// away. A seam that can tell says when (a server process stamps the moment it applied the new fault set, the
// edge controller removes a rule synchronously, a restarted process is ready); the stamp is kept inside the
// [send, answer] interval of the removal call, so another process's clock can never place it outside. A seam that
// cannot tell (a Toxiproxy API call) gets the midpoint of that interval: the removal happened inside it, and
// stamping after the answer would make every t_off late by the whole round trip.
//
// Op windows (plan/op-windows.ts) follow the workload's progress instead of the clock: the workload driver says
// when each op is issued and when it has ended (`opIssued`, `opEnded`). A per-request window is put in place with
// the time windows at 0, scoped to its ops; on the report it runs from its first op's issue to the issue of the first
// op past it (from then on no new op meets it: recovery counts from there), or to its last op's end; a
// progress window is applied as its first op is issued (the op waits for it) and removed once its last op ended.
// Op windows go into the decision log when the run starts, by op index, so the log is the same however ops interleave.
//
// Each window's hits are read from its seam at the end of the timeline, once every window is removed (seams keep
// counts after removal): reading them at each removal would cost a round trip to the server between one window's
// end and the next one's start.
import { epochMs } from '../core/clock.ts';
import type { DecisionLog } from '../core/decision-log.ts';
import type { WindowKind } from '../core/history.ts';
import type { OpScope } from '../core/op-scope.ts';
import { sleep } from '../core/sleep.ts';
import { stableStringify } from '../core/stable-hash.ts';
import type { FaultEnvironment } from '../faults/context.ts';
import type { AppliedFault } from '../faults/kind.ts';
import { findFaultKind } from '../faults/registry.ts';
import type { OpWindow } from '../plan/op-windows.ts';
import { type FaultEntry, WINDOW_FIELDS } from '../profile/schema.ts';
import type { TimelineEvent } from '../profile/timeline.ts';
import type { Recorder } from './recorder.ts';

/** The decision-log stream of the fault timeline. */
export const TIMELINE_STREAM = 'timeline';

export class TimelineDriver {
  private readonly active = new Map<string, AppliedFault>();
  /** Windows whose hits are still to be read. */
  private readonly unread = new Map<string, AppliedFault>();
  /** Op windows by id: how many of their ops this run will run and has not yet seen end. */
  private readonly opsLeft = new Map<string, number>();
  /** Op windows whose first op has been issued. */
  private readonly firstIssued = new Set<string>();
  /** Removals of progress windows still under way (clear waits for them). */
  private readonly closing = new Set<Promise<void>>();

  /** `owns`: the op indices this run runs (a shard runs only its own; plan/op-windows.ts counts only those). */
  constructor(
    private readonly faults: readonly FaultEntry[],
    private readonly env: FaultEnvironment,
    private readonly recorder: Recorder,
    private readonly log: DecisionLog,
    private readonly opWindows: readonly OpWindow[] = [],
    owns: (index: number) => boolean = () => true,
  ) {
    for (const w of opWindows) {
      let left = 0;
      for (let i = w.fromOp; i <= w.toOp; i++) if (owns(i)) left++;
      // A shard that runs none of the window's ops never opens it.
      if (left > 0) this.opsLeft.set(w.faultId, left);
    }
  }

  /**
   * Op `index` is about to be issued: opens the op windows that start with it (a progress window is applied first),
   * and ends on the report the per-request windows it is past: no op issued from here on meets them.
   */
  async opIssued(index: number): Promise<void> {
    for (const w of this.opWindows) {
      if (w.scope === 'per-request' && index > w.toOp && this.firstIssued.has(w.faultId))
        this.recorder.faultOff(w.faultId);
      if (!this.opsLeft.has(w.faultId) || this.firstIssued.has(w.faultId) || index < w.fromOp || index > w.toOp)
        continue;
      this.firstIssued.add(w.faultId);
      if (w.scope === 'per-request') this.recordOn(w.faultIndex, w.faultId, windowKind(w));
      else await this.apply(w.faultIndex, w.faultId, windowKind(w));
    }
  }

  /** Op `index` has ended: closes the op windows whose every op has. */
  opEnded(index: number): void {
    for (const w of this.opWindows) {
      const left = this.opsLeft.get(w.faultId);
      if (left === undefined || index < w.fromOp || index > w.toOp) continue;
      if (left > 1) {
        this.opsLeft.set(w.faultId, left - 1);
        continue;
      }
      this.opsLeft.delete(w.faultId);
      // A per-request window stays in place (it picks only its ops' requests, a straggler's included); on the report
      // it ended when the first op past it was issued, or now if none was.
      if (w.scope === 'per-request') this.recorder.faultOff(w.faultId);
      else {
        const removal = this.remove(w.faultId).finally(() => this.closing.delete(removal));
        this.closing.add(removal);
      }
    }
  }

  /**
   * Plays the timeline from t0. `onStarted` is called once every window that opens at 0 is in place (before any
   * other event): the workload waits for it, so the first op cannot race the first window's set-up.
   */
  async run(events: readonly TimelineEvent[], t0: number, signal: AbortSignal, onStarted?: () => void): Promise<void> {
    let notify = onStarted;
    const started = () => {
      notify?.();
      notify = undefined;
    };
    for (const w of this.opWindows) {
      this.logOpWindow(w);
      // In place before the first op, scoped to the window's ops; on the report from its first op's issue.
      if (w.scope === 'per-request' && this.opsLeft.has(w.faultId) && !signal.aborted)
        await this.apply(w.faultIndex, w.faultId, windowKind(w), false);
    }
    for (const event of events) {
      if (event.atMs > 0) started();
      await sleep(t0 + event.atMs - epochMs(), signal);
      if (signal.aborted) break;
      this.logEvent(event);
      if (event.action === 'on') await this.apply(event.faultIndex, event.faultId, { kind: 'time' });
      else await this.remove(event.faultId);
    }
    started();
  }

  /** Removes whatever is still active (end of run, error, Ctrl-C), then reads every window's hits. */
  async clear(): Promise<void> {
    await Promise.all(this.closing);
    for (const id of [...this.active.keys()]) await this.remove(id).catch(() => {});
    const unread = [...this.unread];
    this.unread.clear();
    // A seam that cannot be read now (its server is gone) cannot count: null, not 0.
    const hits = await Promise.all(unread.map(([, applied]) => applied.hits().catch(() => null)));
    for (const [i, [id]] of unread.entries()) this.recorder.faultHits(id, hits[i]);
  }

  private logEvent(event: TimelineEvent): void {
    if (event.action === 'on') this.logFault(event.faultId, event.faultIndex);
    this.record(event.faultId, event.action, event.atMs);
  }

  /** An op window in the log: its fault, and its ops where a time window has ms. */
  private logOpWindow(w: OpWindow): void {
    this.logFault(w.faultId, w.faultIndex);
    this.record(w.faultId, 'on', `op ${w.fromOp}`);
    this.record(w.faultId, 'off', `op ${w.toOp}`);
    if (w.firstAttempts !== undefined) this.record(w.faultId, 'attempts', w.firstAttempts);
  }

  /** The fault without its window (a time window's log is what it was before op windows existed). */
  private logFault(id: string, index: number): void {
    const { start: _a, stop: _b, fromOp: _f, toOp: _t, firstAttempts: _n, ...fault } = this.faults[index];
    this.record(id, 'fault', stableStringify(fault));
  }

  private record(id: string, what: string, value: number | string): void {
    this.log.sink({ stream: TIMELINE_STREAM, what: `${id} ${what}`, value });
  }

  /** Puts the window's fault in place; `onReport` false: it goes on the report later (opIssued). */
  private async apply(index: number, id: string, window: WindowKind, onReport = true): Promise<void> {
    const fault = this.faults[index];
    const kind = findFaultKind(fault.seam, fault.kind)!;
    const params = Object.fromEntries(
      Object.entries(fault).filter(
        ([k]) => k !== 'seam' && k !== 'kind' && !(WINDOW_FIELDS as readonly string[]).includes(k),
      ),
    );
    const applied = await kind.apply(params, {
      env: this.env,
      id,
      random: this.log.stream(`fault/${id}`),
      ...(window.kind === 'ops' && window.scope === 'per-request' && { ops: opScope(window) }),
    });
    this.active.set(id, applied);
    this.unread.set(id, applied);
    if (onReport) this.recordOn(index, id, window);
  }

  private recordOn(index: number, id: string, window: WindowKind): void {
    const fault = this.faults[index];
    this.recorder.faultOn(id, fault.seam, fault.kind, fault.mayNotHit === true, window);
  }

  private async remove(id: string): Promise<void> {
    const applied = this.active.get(id);
    if (!applied) return;
    this.active.delete(id);
    const sent = epochMs();
    const at = await applied.remove();
    const answered = epochMs();
    this.recorder.faultOff(id, Math.min(Math.max(at ?? (sent + answered) / 2, sent), answered));
  }
}

function windowKind(w: OpWindow): WindowKind {
  return {
    kind: 'ops',
    fromOp: w.fromOp,
    toOp: w.toOp,
    ...(w.firstAttempts !== undefined && { firstAttempts: w.firstAttempts }),
    scope: w.scope,
  };
}

function opScope(w: { fromOp: number; toOp: number; firstAttempts?: number }): OpScope {
  return { from: w.fromOp, to: w.toOp, ...(w.firstAttempts !== undefined && { firstAttempts: w.firstAttempts }) };
}
