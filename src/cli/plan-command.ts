// faultline plan PROFILE: what a run of the profile will do, without running it. The fault timeline and the op
// schedule (tool, arguments, planned model mistakes; start times in the open model), from the profile and seed.
import type { OpWindow } from '../plan/op-windows.ts';
import { buildPlan, type Plan } from '../plan/plan.ts';
import type { PlannedOp } from '../plan/schedule.ts';
import { loadProfile } from '../profile/load.ts';
import type { Profile } from '../profile/schema.ts';
import { type TargetFlags, targetFromFlags } from './target-flags.ts';

/** Ops listed for a closed-model workload, whose op count depends on the server's speed. */
const CLOSED_MODEL_OPS = 20;
/** Argument text longer than this is cut in the table (JSON shows it whole). */
const ARGS_WIDTH = 72;

export interface PlanFlags extends TargetFlags {
  seed?: number;
  json?: boolean;
  ops?: number;
}

export function planCommand(file: string, flags: PlanFlags): void {
  const { profile } = loadProfile(file, { target: targetFromFlags(flags) });
  const plan = buildPlan(profile, flags.seed ?? profile.seed);
  const view = planView(profile, plan, flags.ops);
  process.stdout.write(flags.json ? `${JSON.stringify(view, null, 2)}\n` : renderPlan(view));
}

/** What `faultline plan` prints (its JSON form). */
export interface PlanView {
  profile: string;
  seed: number;
  /**
   * Open model: ops start on schedule; closed model: `concurrency` ops in flight until the duration ends (ops
   * null), or until `ops` ops have run.
   */
  workload: { model: 'open'; rate: number; ops: number } | { model: 'closed'; concurrency: number; ops: number | null };
  durationMs: number;
  timeline: { atMs: number; action: 'on' | 'off'; fault: string }[];
  /** Windows that open and close by op index (plan/op-windows.ts). */
  opWindows: OpWindow[];
  ops: PlannedOp[];
}

export function planView(profile: Profile, plan: Plan, limit?: number): PlanView {
  const { rate, concurrency } = profile.workload;
  const count = plan.ops.count;
  return {
    profile: profile.name,
    seed: plan.seed,
    workload:
      rate !== undefined && count !== undefined
        ? { model: 'open', rate, ops: count }
        : { model: 'closed', concurrency: concurrency ?? 1, ops: profile.workload.ops ?? null },
    durationMs: profile.duration,
    timeline: plan.timeline.map((e) => ({ atMs: e.atMs, action: e.action, fault: e.faultId })),
    opWindows: plan.opWindows,
    ops: plan.ops.first(limit ?? count ?? Math.min(profile.workload.ops ?? CLOSED_MODEL_OPS, CLOSED_MODEL_OPS)),
  };
}

export function renderPlan(view: PlanView): string {
  const w = view.workload;
  const lines = [
    `plan of ${view.profile} (seed ${view.seed}): ${
      w.model === 'open'
        ? `open model, ${w.ops} ops at ${w.rate}/s over ${view.durationMs} ms`
        : w.ops !== null
          ? `closed model, exactly ${w.ops} ops, ${w.concurrency} in flight (fault windows timed over ${view.durationMs} ms)`
          : `closed model, ${w.concurrency} in flight for ${view.durationMs} ms (the op count depends on the server's speed; ops follow by index)`
    }`,
    '',
    'fault timeline (ms from the workload start)',
    ...(view.timeline.length === 0
      ? [view.opWindows.length === 0 ? '  no faults' : '  no time windows']
      : table(
          ['at ms', 'action', 'fault'],
          view.timeline.map((e) => [String(e.atMs), e.action, e.fault]),
        )),
    ...(view.opWindows.length === 0
      ? []
      : [
          '',
          'op windows (by op index, both ends included)',
          ...table(
            ['ops', 'attempts', 'scope', 'fault'],
            view.opWindows.map((w) => [
              `${w.fromOp}..${w.toOp}`,
              w.firstAttempts === undefined ? 'all' : `first ${w.firstAttempts}`,
              w.scope,
              w.faultId,
            ]),
          ),
        ]),
    '',
    `ops (${view.ops.length}${w.ops !== null ? ` of ${w.ops}` : ', the first by index'})`,
    ...table(
      ['op', 'at ms', 'tool', 'arguments', 'mistake'],
      view.ops.map((op) => [
        op.opId,
        op.atMs === undefined ? '-' : String(op.atMs),
        op.tool,
        short(op.args),
        mistakeOf(op),
      ]),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

function mistakeOf(op: PlannedOp): string {
  const m = op.mistake;
  if (!m) return '';
  return m.tool === op.tool ? `${m.kind}: ${short(m.args)}` : `${m.kind}: calls ${m.tool}`;
}

function short(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length <= ARGS_WIDTH ? text : `${text.slice(0, ARGS_WIDTH)}… (${text.length} chars)`;
}

/** Columns padded to their widest cell, two spaces apart, indented. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `  ${cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd()}`;
  return [line(header), ...rows.map(line)];
}
