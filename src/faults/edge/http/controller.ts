// The MCP-edge seam: a fetch middleware on the client transport. Active rules apply in the order they were
// added; a rule either answers or calls the next one, which ends in the real fetch to the server. Each exchange a
// rule acts on is one of its hits.
import { HitCounter } from '../../../core/hit-counter.ts';
import { RequestKeys, traceOfBody } from '../../../core/logical-key.ts';
import { ruleTouches } from '../rule-base.ts';
import type { EdgeExchange, EdgeRule, Forward } from './rule.ts';

export class EdgeController {
  private rules: EdgeRule[] = [];
  /** Exchanges each rule acted on, by rule id (kept after the rule is removed). */
  readonly hits = new HitCounter();
  /** Logical keys of the requests (every traced POST counts, rules or not, so a key never depends on them). */
  private readonly keys: RequestKeys;

  /** `generationMs`: how long a quiet attempt's request count is kept (core/logical-key.ts, ordinalGenerationFor). */
  constructor(generationMs?: number) {
    this.keys = new RequestKeys(generationMs);
  }

  add(rule: EdgeRule): void {
    this.rules.push(rule);
  }

  remove(id: string): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  wrap = (inner: typeof fetch): typeof fetch => {
    // Not async: with no rule active (most of a run) the request goes straight on, with no promise of its own.
    return (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : undefined;
      const key = this.keys.next(traceOfBody(body));
      if (this.rules.length === 0) return inner(input, init);
      return this.through(inner, input, init, body, key);
    };
  };

  /** The request through the rules active now: each may answer it or pass it on, changed or not. */
  private async through(
    inner: typeof fetch,
    input: Parameters<typeof fetch>[0],
    init: RequestInit | undefined,
    body: string | undefined,
    key: string | undefined,
  ): Promise<Response> {
    const method = init?.method ?? 'GET';
    const exchange: EdgeExchange = {
      url: String(input instanceof Request ? input.url : input),
      method,
      headers: new Headers(init?.headers),
      rpcMethod: rpcMethodOf(body),
      body,
      ...(key !== undefined && { key }),
    };
    const applicable = this.rules.filter(
      (r) =>
        ruleTouches(r, exchange.rpcMethod, key) &&
        // Keyed by op, attempt and request when the request carries a trace id; else in arrival order.
        (key === undefined ? r.random : r.random.keyed(key)).chance(
          `fires ${exchange.rpcMethod ?? method}`,
          r.probability,
        ),
    );
    const chain = applicable.reduceRight<Forward>(
      (next, rule) => (changed) =>
        rule.handle({ ...exchange, ...changed, headers: changed?.headers ?? exchange.headers }, next, () =>
          this.hits.count(rule.id),
        ),
      (changed) =>
        inner(changed?.url ?? input, {
          ...init,
          headers: changed?.headers ?? init?.headers,
          body: changed?.body ?? init?.body,
          signal: bothSignals(init?.signal ?? undefined, changed?.signal),
        }),
    );
    return chain();
  }
}

function rpcMethodOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body);
    return typeof parsed?.method === 'string' ? parsed.method : undefined;
  } catch {
    return undefined;
  }
}

/** Aborted when either is (a rule's hang-up beside the transport's own abort). */
function bothSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}
