// Where two decision logs of the same profile and seed part ways: decisions are grouped by the op their stream
// names (`.../op-00012/...`, or the planner's `op12`), in op order, with the run-level streams (timeline,
// proxies) first; within a group each stream keeps its own order. Arrival order between streams never counts.
import type { DecisionRecord } from './history.ts';

export interface Divergence {
  /** The op whose decisions differ, or null for a run-level stream. */
  opId: string | null;
  stream: string;
  what: string;
  /** The original run's decision, or undefined when the replay made one more. */
  expected?: DecisionRecord['value'];
  /** The replay's decision, or undefined when it made one fewer. */
  actual?: DecisionRecord['value'];
}

const OP = /(?:^|\/)op-?(\d+)(?:\/|$)/;

function opIndex(stream: string): number | null {
  const m = OP.exec(stream);
  return m ? Number(m[1]) : null;
}

/** Decisions by op (run-level streams as -1), then by stream, each stream in its own order. */
function grouped(log: readonly DecisionRecord[]): Map<number, Map<string, DecisionRecord[]>> {
  const groups = new Map<number, Map<string, DecisionRecord[]>>();
  for (const d of log) {
    const key = opIndex(d.stream) ?? -1;
    const streams = groups.get(key) ?? new Map<string, DecisionRecord[]>();
    streams.set(d.stream, [...(streams.get(d.stream) ?? []), d]);
    groups.set(key, streams);
  }
  return groups;
}

const sortedKeys = <K>(a: Map<K, unknown> | undefined, b: Map<K, unknown> | undefined): K[] =>
  [...new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));

export function firstDivergence(
  original: readonly DecisionRecord[],
  replay: readonly DecisionRecord[],
): Divergence | undefined {
  const a = grouped(original);
  const b = grouped(replay);
  for (const key of sortedKeys(a, b)) {
    for (const stream of sortedKeys(a.get(key), b.get(key))) {
      const left = a.get(key)?.get(stream) ?? [];
      const right = b.get(key)?.get(stream) ?? [];
      for (let i = 0; i < Math.max(left.length, right.length); i++) {
        const x = left[i];
        const y = right[i];
        if (x && y && x.what === y.what && x.value === y.value) continue;
        return {
          opId: key < 0 ? null : `op-${String(key).padStart(5, '0')}`,
          stream,
          what: (x ?? y)!.what,
          ...(x ? { expected: x.value } : {}),
          ...(y ? { actual: y.value } : {}),
        };
      }
    }
  }
  return undefined;
}

/** One line for a person: where the replay went another way. */
export function describeDivergence(d: Divergence): string {
  const where = d.opId ? `op ${d.opId}` : 'the run itself';
  const what = `${d.stream} ${d.what}`;
  if (d.expected === undefined)
    return `first divergence at ${where}: the replay made an extra decision ${what} = ${String(d.actual)}`;
  if (d.actual === undefined)
    return `first divergence at ${where}: the replay never made ${what} (was ${String(d.expected)})`;
  return `first divergence at ${where}: ${what} was ${String(d.expected)}, now ${String(d.actual)}`;
}
