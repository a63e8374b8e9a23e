// The desired fault state of a run: which dependency faults and server behaviours should be active now, one spec
// per fault window (keyed by the window id, in the order the windows opened; later windows win on conflicts).
// Fault windows edit it; the target pushes each change to the server processes that run, and hands the whole state
// to every process it starts or restarts. So a window that ends while the server is down is simply gone when it
// comes back, and ending it needs no running server. A change resolves with when the server applied it (the
// latest of its live processes, on their epoch clock), or undefined when no process runs (nothing had to change).
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';
import type { ControlRequest } from '../control/control.ts';
import type { BehaviourSpec } from '../server/behaviour.ts';

/**
 * Sends one request to every live server process; resolves once they took it (a process that is gone is skipped),
 * with the latest time one of them applied it (epoch ms), or undefined when none runs.
 */
export type PushToLive = (request: ControlRequest) => Promise<number | undefined>;

/** When a process applied a change: the `appliedAtMs` the set operations answer (undefined for other answers). */
export function appliedAtOf(output: unknown): number | undefined {
  const at = (output as { appliedAtMs?: unknown } | undefined)?.appliedAtMs;
  return typeof at === 'number' ? at : undefined;
}

/** The latest of several application times (undefined when there is none). */
export function latestOf(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((t): t is number => t !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
}

/** One part of the state: specs by window id, pushed whole by one control operation. */
export class DesiredSet<T extends { id: string }> {
  private readonly specs = new Map<string, T>();

  constructor(private readonly changed: (specs: T[]) => Promise<number | undefined>) {}

  list(): T[] {
    return [...this.specs.values()];
  }

  /** Adds (or replaces) the window's spec; resolves with when the server applied it (see PushToLive). */
  put(spec: T): Promise<number | undefined> {
    this.specs.set(spec.id, spec);
    return this.changed(this.list());
  }

  /** Removes the window's spec; resolves with when the server applied that (see PushToLive). */
  async delete(id: string): Promise<number | undefined> {
    if (!this.specs.delete(id)) return undefined;
    return this.changed(this.list());
  }

  /** The whole part at once (tests, and `setDependencyFaults` on a target). */
  async replace(specs: readonly T[]): Promise<void> {
    this.specs.clear();
    for (const spec of specs) this.specs.set(spec.id, spec);
    await this.changed(this.list());
  }

  /** Forgets every spec without pushing (the server was reset). */
  clear(): void {
    this.specs.clear();
  }
}

export class DesiredFaultState {
  readonly dependencyFaults: DesiredSet<DependencyFaultSpecInput>;
  readonly behaviour: DesiredSet<BehaviourSpec>;

  constructor(push: PushToLive) {
    this.dependencyFaults = new DesiredSet((input) => push({ op: 'setDependencyFaults', input }));
    this.behaviour = new DesiredSet((input) => push({ op: 'setBehaviour', input }));
  }

  /** What a new server process is told before it serves (empty parts are left out: a new process has none). */
  requests(): ControlRequest[] {
    const requests: ControlRequest[] = [];
    const faults = this.dependencyFaults.list();
    if (faults.length > 0) requests.push({ op: 'setDependencyFaults', input: faults });
    const behaviour = this.behaviour.list();
    if (behaviour.length > 0) requests.push({ op: 'setBehaviour', input: behaviour });
    return requests;
  }

  clear(): void {
    this.dependencyFaults.clear();
    this.behaviour.clear();
  }
}
