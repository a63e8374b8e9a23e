// Applies the active set of dependency faults to one request: every matching fault whose probability draw
// succeeds wraps the next, in list order (the first listed is the outermost), around the route's resolver.
//
// Faults are independent: `set` keeps the instance (state, activation time, random stream) of every fault whose id
// and content are unchanged, so applying or removing one fault never resets another.
//
// Same seed, same faults: a request that carries a logical key (the op's trace id, the attempt number, and its
// ordinal among that attempt's requests) draws from a stream named by the fault and that key, so its decisions do
// not depend on the order in which concurrent requests arrive. Only unkeyed requests draw from the fault's own
// stream in arrival order.
//
// Every fault proves it hit: a kind calls `ctx.hit()` where it acts on a request, and `hits` counts that by fault id
// (kept after the fault is removed, until reset), so a window whose fault never acted is seen as inert.
import { HitCounter } from '../../src/core/hit-counter.ts';
import { AttemptOrdinals, requestKey } from '../../src/core/logical-key.ts';
import { inOpScope } from '../../src/core/op-scope.ts';
import type { DecisionSink } from '../../src/core/random.ts';
import { RandomStream } from '../../src/core/random.ts';
import { stableStringify } from '../../src/core/stable-hash.ts';
import { ATTEMPT_HEADER, TRACE_HEADER } from '../../src/core/wire.ts';
import type { DependencyName } from '../apis/types.ts';
import { type DependencyFaultSpec, faultKind, parseDependencyFaults } from './registry.ts';
import type { Next } from './types.ts';

interface ActiveFault {
  spec: DependencyFaultSpec;
  /** The spec in canonical form: a fault is kept across `set` when its id and this are unchanged. */
  content: string;
  random: RandomStream;
  state: Record<string, unknown>;
  activatedAtMs: number;
}

export class FaultEngine {
  private active: ActiveFault[] = [];
  /** Requests seen per op attempt (trace id and attempt), for the request ordinal in the logical key. */
  private readonly requestsPerAttempt = new AttemptOrdinals();

  constructor(
    private readonly seed: number,
    private readonly sink: DecisionSink,
    /** Requests each fault acted on, by fault id. */
    readonly hits: HitCounter = new HitCounter(),
  ) {}

  /** Makes `input` (validated) the active set; unchanged faults keep their state, time and stream. */
  set(input: unknown): void {
    const now = Date.now();
    const current = new Map(this.active.map((a) => [a.spec.id, a]));
    this.active = parseDependencyFaults(input).map((spec) => {
      const content = stableStringify(spec);
      const kept = current.get(spec.id);
      if (kept?.content === content) return kept;
      return {
        spec,
        content,
        random: new RandomStream(this.seed, `deps/fault/${spec.id}`, this.sink),
        state: {},
        activatedAtMs: now,
      };
    });
  }

  list(): DependencyFaultSpec[] {
    return this.active.map((a) => a.spec);
  }

  /** No faults, no hits, and request ordinals start again (a reset world replays a run's keys from the beginning). */
  reset(): void {
    this.set([]);
    this.requestsPerAttempt.clear();
    this.hits.clear();
  }

  /** `resolve` (one route of `dependency`) with the active faults around it. */
  wrap(dependency: DependencyName, resolve: (request: Request) => Promise<Response>) {
    return (request: Request) => this.run(dependency, request, () => resolve(request));
  }

  run(dependency: DependencyName | 'intercepted', request: Request, terminal: Next): Promise<Response> {
    // Every request of an attempt counts toward its ordinal, whatever is active, so the key never shifts.
    const key = this.logicalKey(request);
    // No fault active (most of a run's calls): nothing to match or draw.
    if (this.active.length === 0) return terminal();
    const label = `${dependency} ${request.method} ${new URL(request.url).pathname}`;
    const chosen = this.active.flatMap((fault) => {
      if (fault.spec.dependency !== '*' && fault.spec.dependency !== dependency) return [];
      if (fault.spec.method && fault.spec.method !== request.method) return [];
      // An op window: only requests of its ops, told by the forwarded trace id and attempt (exact under any load).
      if (fault.spec.ops && !inOpScope(fault.spec.ops, key)) return [];
      const random = key === undefined ? fault.random : fault.random.keyed(key);
      const p = fault.spec.probability ?? 1;
      // Certain faults need no draw; only real random decisions go into the log.
      return p >= 1 || random.chance(`fires ${label}`, p) ? [{ fault, random }] : [];
    });
    const chain = chosen.reduceRight<Next>((next, { fault, random }) => {
      const kind = faultKind(fault.spec.kind)!;
      const id = fault.spec.id;
      const ctx = {
        request,
        dependency,
        random,
        state: fault.state,
        activatedAtMs: fault.activatedAtMs,
        hit: () => this.hits.count(id),
      };
      return () => kind.apply(fault.spec, ctx, next);
    }, terminal);
    return chain();
  }

  /**
   * `<trace>/attempt-<n>/request-<k>` (or `<trace>/request-<k>` when no attempt is forwarded); undefined without a
   * trace id. Every request counts toward the ordinal, whether or not a fault matches it, so the key never depends
   * on the active set. An attempt's requests are sequential, so the ordinal is fixed by the tool's own logic.
   */
  private logicalKey(request: Request): string | undefined {
    const trace = request.headers.get(TRACE_HEADER);
    if (!trace) return undefined;
    return requestKey(trace, request.headers.get(ATTEMPT_HEADER) || undefined, this.requestsPerAttempt);
  }
}
