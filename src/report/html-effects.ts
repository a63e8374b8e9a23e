// report.html's effects table: each side-effect problem with its count and the ops behind it (op id = the trace
// id the client sent), with what each op saw and which effects the ledger holds for it.
import type { History, OpRecord } from '../core/history.ts';
import { opGroups } from '../core/history-records.ts';
import type { Effect } from '../core/ledger.ts';
import { METRICS } from '../measure/metric-table.ts';
import type { Metrics } from '../measure/types.ts';
import { escapeHtml as e } from './escape.ts';
import { fmtMs } from './format.ts';
import { htmlTable, type Row } from './html-table.ts';
import { formatMetricValue } from './metric-rows.ts';

/** Ops listed per row; the rest are counted (trace.jsonl has them all). */
const LIST_LIMIT = 20;

interface EffectRow {
  metric: string;
  what: string;
  opIds: readonly string[];
}

export function effectsTable(m: Metrics, history: History | undefined, startMs: number): string {
  const r = m.reconciliation;
  const rows: EffectRow[] = [
    { metric: 'duplicate_effects', what: 'ops with more than one effect', opIds: r.duplicateOps },
    { metric: 'ghost_effects', what: 'ops that ended fail but have an effect', opIds: r.ghostOps },
    { metric: 'lost_effects', what: 'side-effecting ops that ended ok without effect', opIds: r.lostOps },
    { metric: 'indeterminate_effects', what: 'ops with outcome info whose effect exists', opIds: r.infoWithEffectOps },
    ...unsafeReplayRows(history, r.duplicateOps),
  ];
  const listed = new Set(rows.flatMap((row) => row.opIds.slice(0, LIST_LIMIT)));
  const ops = listedOps(history, listed);
  const effects = listedEffects(history?.effects ?? [], listed);
  const body: Row[] = rows.map((row) => {
    const value = METRICS[row.metric].get(m);
    return {
      bad: value.value !== null && value.value > 0,
      cells: [
        { html: `<code>${row.metric}</code>`, head: true },
        { html: e(formatMetricValue(METRICS[row.metric], value)), cls: 'num' },
        row.opIds.length === 0
          ? `<span class="meta">none (${e(row.what)})</span>`
          : `${row.opIds.length} op(s): ${opList(row.opIds, ops, effects, startMs)}`,
      ],
    };
  });
  const unattributed = METRICS.unattributed_effects.get(m);
  body.push({
    bad: (unattributed.value ?? 0) > 0,
    cells: [
      { html: '<code>unattributed_effects</code>', head: true },
      { html: e(formatMetricValue(METRICS.unattributed_effects, unattributed)), cls: 'num' },
      r.unattributedSeqs.length === 0
        ? '<span class="meta">none (effects no op claims)</span>'
        : `ledger seq ${e(r.unattributedSeqs.slice(0, LIST_LIMIT).join(', '))}${more(r.unattributedSeqs.length)}`,
    ],
  });
  const how = `${r.effects} effect(s) in the ledger: ${r.byTraceId} matched by trace id, ${r.byArgsKey} by argument values`;
  return `${htmlTable('effects', ['metric', 'value', 'ops behind it (op id = trace id)'], body)}<p class="meta">${e(how)}</p>`;
}

/** The unsafe replays' ops, and those of them with a second effect (the op records name them, not the ledger). */
function unsafeReplayRows(history: History | undefined, duplicateOps: readonly string[]): EffectRow[] {
  // By start, as listed before the records were read in the order ops ended (a re-render from history.jsonl agrees).
  const found: [number, string][] = [];
  for (const { op } of history ? opGroups(history) : []) {
    if (op && (op.unsafeReplays ?? 0) > 0) found.push([op.startMs, op.opId]);
  }
  const unsafe = found.sort((a, b) => a[0] - b[0]).map(([, id]) => id);
  const twice = new Set(duplicateOps);
  return [
    {
      metric: 'unsafe_replays',
      what: 'ops replayed after an unknown outcome with nothing making it safe',
      opIds: unsafe,
    },
    {
      metric: 'unsafe_replay_duplicates',
      what: 'of those, ops with a second effect',
      opIds: unsafe.filter((id) => twice.has(id)),
    },
  ];
}

/** The records of the ops the table lists (LIST_LIMIT a row), read in one pass: the rest stay on disk. */
function listedOps(history: History | undefined, wanted: ReadonlySet<string>): Map<string, OpRecord> {
  const ops = new Map<string, OpRecord>();
  if (!history || wanted.size === 0) return ops;
  for (const { op } of opGroups(history)) if (op && wanted.has(op.opId)) ops.set(op.opId, op);
  return ops;
}

function opList(
  ids: readonly string[],
  ops: Map<string, OpRecord>,
  effects: Map<string, Effect[]>,
  startMs: number,
): string {
  const items = ids.slice(0, LIST_LIMIT).map((id) => {
    const op = ops.get(id);
    const mine = effects.get(id) ?? [];
    const what = op
      ? `${op.tool}, ${op.outcome}${op.errorCode ? ` ${op.errorCode}` : ''}, ${op.attempts} attempt(s), started ${fmtMs(op.startMs - startMs)}`
      : '';
    const keys = [...new Set(mine.map((x) => x.idempotencyKey).filter((k) => k !== undefined))];
    const fx =
      mine.length > 0
        ? `; ${mine.length} effect(s) at ${mine.map((x) => fmtMs(x.atMs - startMs)).join(', ')}${keys.length > 0 ? `, keys ${keys.join(', ')}` : ''}`
        : '';
    return `<li><code>${e(id)}</code> ${e(what + fx)}</li>`;
  });
  return `<ul class="ops">${items.join('')}</ul>${more(ids.length)}`;
}

function more(total: number): string {
  return total > LIST_LIMIT ? `<span class="meta"> … and ${total - LIST_LIMIT} more (all in trace.jsonl)</span>` : '';
}

/** The effects of the ops the table lists, by op id (= trace id), read in one pass: the rest are not kept. */
function listedEffects(effects: Iterable<Effect>, listed: ReadonlySet<string>): Map<string, Effect[]> {
  const map = new Map<string, Effect[]>();
  for (const x of effects) {
    if (x.traceId === undefined || !listed.has(x.traceId)) continue;
    const list = map.get(x.traceId);
    if (list) list.push(x);
    else map.set(x.traceId, [x]);
  }
  return map;
}
