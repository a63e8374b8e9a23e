// The MCP-edge seam for stdio, client side: the active rules (seeded draws, per request, keyed by the request's
// logical key) pick which request a fault hits; the interposer on that child's pipe (interposer.ts, driven by
// targets/stdio-transport.ts) carries the directive out on the real bytes. Each request a rule picks is one of its
// hits. It also tallies what the client's reader saw, by cause, for the report.
import { HitCounter } from '../../../core/hit-counter.ts';
import { RequestKeys } from '../../../core/logical-key.ts';
import { type RuleBase, ruleTouches } from '../rule-base.ts';
import type { StdioFaultDirective } from './directive.ts';

export interface StdioRule extends RuleBase {
  directive: StdioFaultDirective;
}

/** What the client saw on its stdio transports, by cause. */
export interface StdioTally {
  /** Requests a rule picked, by directive kind. */
  picked: Record<string, number>;
  /** Lines the reader could not parse (onerror, parsing continues). */
  malformedLines: number;
  /** Lines over the framing limit (the SDK closed the transport and killed the child). */
  oversizedLines: number;
  /** Other transport errors. */
  otherErrors: number;
  /** The first other error's message, for the report. */
  otherSample?: string;
}

const OVERSIZE = /ReadBuffer exceeded maximum size/;

export class StdioEdgeController {
  private rules: StdioRule[] = [];
  /** Logical keys of the requests (every traced request counts, rules or not). */
  readonly keys = new RequestKeys();
  readonly tally: StdioTally = { picked: {}, malformedLines: 0, oversizedLines: 0, otherErrors: 0 };
  /** Requests each rule tagged, by rule id (kept after the rule is removed). */
  readonly hits = new HitCounter();

  add(rule: StdioRule): void {
    this.rules.push(rule);
  }

  remove(id: string): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  get active(): number {
    return this.rules.length;
  }

  /**
   * The directive for this outgoing request, if a rule fires (one draw per applicable rule, in order), drawn under
   * the request's logical key (op, attempt, request) when it carries a trace id, else in arrival order.
   */
  pick(method: string, key: string | undefined): StdioFaultDirective | undefined {
    for (const rule of this.rules) {
      if (!ruleTouches(rule, method, key)) continue;
      const random = key === undefined ? rule.random : rule.random.keyed(key);
      if (random.chance(`fires ${method}`, rule.probability)) {
        this.hits.count(rule.id);
        this.tally.picked[rule.directive.kind] = (this.tally.picked[rule.directive.kind] ?? 0) + 1;
        return rule.directive;
      }
    }
    return undefined;
  }

  noteError(error: Error): void {
    if (OVERSIZE.test(error.message)) this.tally.oversizedLines++;
    else if (error instanceof SyntaxError || error.name === 'ZodError') this.tally.malformedLines++;
    else {
      this.tally.otherErrors++;
      this.tally.otherSample ??= error.message.slice(0, 120);
    }
  }
}
