// Applies the active set of dependency faults to one request: every matching fault whose probability draw
// succeeds wraps the next, in list order (the first listed is the outermost).
import type { DecisionSink } from '../../src/core/random.ts';
import { RandomStream } from '../../src/core/random.ts';
import type { DependencyName } from '../apis/types.ts';
import { type DependencyFaultSpec, faultKind, parseDependencyFaults } from './registry.ts';
import type { Next } from './types.ts';

interface ActiveFault {
  spec: DependencyFaultSpec;
  random: RandomStream;
  state: Record<string, unknown>;
  activatedAtMs: number;
}

export class FaultEngine {
  private active: ActiveFault[] = [];

  constructor(
    private readonly seed: number,
    private readonly sink: DecisionSink,
  ) {}

  /** Replaces the whole active set (validated). */
  set(input: unknown): void {
    const now = Date.now();
    this.active = parseDependencyFaults(input).map((spec) => ({
      spec,
      random: new RandomStream(this.seed, `deps/fault/${spec.id}`, this.sink),
      state: {},
      activatedAtMs: now,
    }));
  }

  list(): DependencyFaultSpec[] {
    return this.active.map((a) => a.spec);
  }

  run(dependency: DependencyName, request: Request, terminal: Next): Promise<Response> {
    const url = new URL(request.url);
    const label = `${dependency} ${request.method} ${url.pathname}`;
    const chosen = this.active.filter((a) => {
      if (a.spec.dependency !== '*' && a.spec.dependency !== dependency) return false;
      if (a.spec.method && a.spec.method !== request.method) return false;
      const p = a.spec.probability ?? 1;
      // Certain faults need no draw; only real random decisions go into the log.
      return p >= 1 || a.random.chance(`fires ${label}`, p);
    });
    const chain = chosen.reduceRight<Next>((next, a) => {
      const kind = faultKind(a.spec.kind)!;
      return () =>
        kind.apply(
          a.spec,
          { request, dependency, random: a.random, state: a.state, activatedAtMs: a.activatedAtMs },
          next,
        );
    }, terminal);
    return chain();
  }
}
