// Where two decision logs of the same profile and seed part ways: decisions are grouped by the op their stream
// names (`.../op-00012/...`, or the planner's `op12`), in op order, with the run-level streams (timeline,
// proxies) first; within a group each stream keeps its own order. Arrival order between streams never counts.
// `compareDecisions` is what `faultline replay` prints: plan decisions op by op, keyed draws key by key.
import { compareKeyed, type KeyedComparison } from './decision-log.ts';
import type { DecisionRecord } from './history.ts';
import { opName } from './op-name.ts';

export interface Divergence {
  /** The op whose decisions differ, or null for a run-level stream. */
  opId: string | null;
  /** The op's attempt the stream names (`.../attempt-2/...`), when it names one. */
  attempt?: number;
  stream: string;
  what: string;
  /** The original run's decision, or undefined when the replay made one more. */
  expected?: DecisionRecord['value'];
  /** The replay's decision, or undefined when it made one fewer. */
  actual?: DecisionRecord['value'];
}

const OP = /(?:^|\/)op-?(\d+)(?:\/|$)/;
const ATTEMPT = /(?:^|\/)attempt-(\d+)(?:\/|$)/;

function attemptOf(stream: string): { attempt?: number } {
  const m = ATTEMPT.exec(stream);
  return m ? { attempt: Number(m[1]) } : {};
}

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
          opId: key < 0 ? null : opName(key),
          ...attemptOf(stream),
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

export interface DecisionComparison {
  /** Plan decisions (not keyed) of the original run, compared op by op. */
  planDecisions: number;
  /** The keyed draws, key by key (a key only one run reached is timing, not a divergence). */
  keyed: KeyedComparison;
  /** The first plan decision that differs, else the first keyed draw whose value differs for the same key. */
  divergence?: Divergence;
}

/** A replay against its original: identical when `divergence` is undefined (core/decision-log.ts says why). */
export function compareDecisions(
  original: readonly DecisionRecord[],
  replay: readonly DecisionRecord[],
): DecisionComparison {
  const plan = (log: readonly DecisionRecord[]) => log.filter((d) => !d.keyed);
  const planOriginal = plan(original);
  const keyed = compareKeyed(original, replay);
  const mismatch = keyed.mismatched[0];
  const index = mismatch ? opIndex(mismatch.stream) : null;
  const divergence =
    firstDivergence(planOriginal, plan(replay)) ??
    (mismatch && {
      opId: index === null ? null : opName(index),
      ...attemptOf(mismatch.stream),
      stream: mismatch.stream,
      what: mismatch.what,
      expected: mismatch.expected,
      actual: mismatch.actual,
    });
  return { planDecisions: planOriginal.length, keyed, ...(divergence && { divergence }) };
}

/** One line for a person: where the replay went another way. */
export function describeDivergence(d: Divergence): string {
  const where = d.opId ? `op ${d.opId}${d.attempt === undefined ? '' : ` attempt ${d.attempt}`}` : 'the run itself';
  const what = `${d.stream} ${d.what}`;
  if (d.expected === undefined)
    return `first divergence at ${where}: the replay made an extra decision ${what} = ${String(d.actual)}`;
  if (d.actual === undefined)
    return `first divergence at ${where}: the replay never made ${what} (was ${String(d.expected)})`;
  return `first divergence at ${where}: ${what} was ${String(d.expected)}, now ${String(d.actual)}`;
}
