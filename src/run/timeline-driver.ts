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
// Each window's hits are read from its seam at the end of the timeline, once every window is removed (seams keep
// counts after removal): reading them at each removal would cost a round trip to the server between one window's
// end and the next one's start.
import { epochMs } from '../core/clock.ts';
import type { DecisionLog } from '../core/decision-log.ts';
import { sleep } from '../core/sleep.ts';
import { stableStringify } from '../core/stable-hash.ts';
import type { FaultEnvironment } from '../faults/context.ts';
import type { AppliedFault } from '../faults/kind.ts';
import { findFaultKind } from '../faults/registry.ts';
import type { TimelineEvent } from '../plan/timeline.ts';
import type { FaultEntry } from '../profile/schema.ts';
import type { Recorder } from './recorder.ts';

/** The decision-log stream of the fault timeline. */
export const TIMELINE_STREAM = 'timeline';

export class TimelineDriver {
  private readonly active = new Map<string, AppliedFault>();
  /** Windows whose hits are still to be read. */
  private readonly unread = new Map<string, AppliedFault>();

  constructor(
    private readonly faults: readonly FaultEntry[],
    private readonly env: FaultEnvironment,
    private readonly recorder: Recorder,
    private readonly log: DecisionLog,
  ) {}

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
    for (const event of events) {
      if (event.atMs > 0) started();
      await sleep(t0 + event.atMs - epochMs(), signal);
      if (signal.aborted) break;
      this.logEvent(event);
      if (event.action === 'on') await this.apply(event);
      else await this.remove(event.faultId);
    }
    started();
  }

  /** Removes whatever is still active (end of run, error, Ctrl-C), then reads every window's hits. */
  async clear(): Promise<void> {
    for (const id of [...this.active.keys()]) await this.remove(id).catch(() => {});
    const unread = [...this.unread];
    this.unread.clear();
    // A seam that cannot be read now (its server is gone) cannot count: null, not 0.
    const hits = await Promise.all(unread.map(([, applied]) => applied.hits().catch(() => null)));
    for (const [i, [id]] of unread.entries()) this.recorder.faultHits(id, hits[i]);
  }

  private logEvent(event: TimelineEvent): void {
    const record = (what: string, value: number | string) =>
      this.log.sink({ stream: TIMELINE_STREAM, what: `${event.faultId} ${what}`, value });
    if (event.action === 'on') {
      const { start: _a, stop: _b, ...fault } = this.faults[event.faultIndex];
      record('fault', stableStringify(fault));
    }
    record(event.action, event.atMs);
  }

  private async apply(event: TimelineEvent): Promise<void> {
    const fault = this.faults[event.faultIndex];
    const kind = findFaultKind(fault.seam, fault.kind)!;
    const { seam: _s, kind: _k, start: _a, stop: _b, mayNotHit, ...params } = fault;
    const applied = await kind.apply(params, {
      env: this.env,
      id: event.faultId,
      random: this.log.stream(`fault/${event.faultId}`),
    });
    this.active.set(event.faultId, applied);
    this.unread.set(event.faultId, applied);
    this.recorder.faultOn(event.faultId, fault.seam, fault.kind, mayNotHit === true);
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
