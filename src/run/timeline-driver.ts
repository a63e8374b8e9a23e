// Applies and removes faults at their planned moments, with the parameters the profile loader parsed. Window
// times are recorded when the fault is really in place (after apply resolved) and really gone (after removal
// resolved), not when it was planned.
import { epochMs } from '../core/clock.ts';
import type { DecisionLog } from '../core/decision-log.ts';
import { sleep } from '../core/sleep.ts';
import type { FaultEnvironment } from '../faults/context.ts';
import type { RemoveFault } from '../faults/kind.ts';
import { findFaultKind } from '../faults/registry.ts';
import type { TimelineEvent } from '../plan/timeline.ts';
import type { FaultEntry } from '../profile/schema.ts';
import type { Recorder } from './recorder.ts';

export class TimelineDriver {
  private readonly active = new Map<string, RemoveFault>();

  constructor(
    private readonly faults: readonly FaultEntry[],
    private readonly env: FaultEnvironment,
    private readonly recorder: Recorder,
    private readonly log: DecisionLog,
  ) {}

  async run(events: readonly TimelineEvent[], t0: number, signal: AbortSignal): Promise<void> {
    for (const event of events) {
      await sleep(t0 + event.atMs - epochMs(), signal);
      if (signal.aborted) return;
      if (event.action === 'on') await this.apply(event);
      else await this.remove(event.faultId);
    }
  }

  /** Removes whatever is still active (end of run, error, Ctrl-C). */
  async clear(): Promise<void> {
    for (const id of [...this.active.keys()]) await this.remove(id).catch(() => {});
  }

  private async apply(event: TimelineEvent): Promise<void> {
    const fault = this.faults[event.faultIndex];
    const kind = findFaultKind(fault.seam, fault.kind)!;
    const { seam: _s, kind: _k, start: _a, stop: _b, ...params } = fault;
    const remove = await kind.apply(params, {
      env: this.env,
      id: event.faultId,
      random: this.log.stream(`fault/${event.faultId}`),
    });
    this.active.set(event.faultId, remove);
    this.recorder.faultOn(event.faultId, fault.seam, fault.kind);
  }

  private async remove(id: string): Promise<void> {
    const remove = this.active.get(id);
    if (!remove) return;
    this.active.delete(id);
    await remove();
    this.recorder.faultOff(id);
  }
}
