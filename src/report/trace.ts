// trace.jsonl: every attempt, op, fault window event and effect of every profile, one JSON object per line,
// sorted by time, so a failure can be read as one story. An attempt's line carries what a person debugging
// needs: op, attempt, tool, redacted arguments, idempotency key, outcome, category, code, HTTP status, server
// request id, the backoff before it, its latency and the fault windows active while it ran. Fields the client
// did not record are absent; `gapMs` (time since the op's previous attempt ended) is measured, not recorded.
import type { AttemptRecord, History } from '../core/history.ts';
import { redactDeep, redactText } from '../core/redact.ts';
import type { RunReport } from '../measure/run-report.ts';
import { workloadOffsetMs } from './time-base.ts';

export interface TraceEvent {
  type: 'profile.start' | 'profile.end' | 'fault.on' | 'fault.off' | 'attempt' | 'op' | 'effect';
  profile: string;
  /** Epoch ms: attempts and ops at their start, effects when performed, faults when applied or removed. */
  t: number;
  /** ms since the workload's start (negative during set-up). */
  tRelMs: number;
  [key: string]: unknown;
}

// At equal times, a fault applies before the work it hits, and is removed after the work that ended with it.
const ORDER: Record<TraceEvent['type'], number> = {
  'profile.start': 0,
  'fault.on': 1,
  attempt: 2,
  op: 3,
  effect: 4,
  'fault.off': 5,
  'profile.end': 6,
};

const MAX_MESSAGE = 500;
const round1 = (v: number) => Math.round(v * 10) / 10;

/** `run` gives each profile's workload start; without it, the first op's start is used. */
export function traceEvents(histories: Record<string, History>, run?: RunReport): TraceEvent[] {
  const events: TraceEvent[] = [];
  for (const [profile, h] of Object.entries(histories)) {
    const report = run?.profiles.find((p) => p.name === profile);
    const origin = h.startMs + workloadOffsetMs(report ?? {}, h);
    const at = (type: TraceEvent['type'], t: number, rest: Record<string, unknown>) =>
      events.push({ type, profile, t, tRelMs: round1(t - origin), ...rest });
    at('profile.start', h.startMs, {});
    at('profile.end', h.endMs, {});
    for (const f of h.faults) {
      at('fault.on', f.onMs, { fault: f.id, seam: f.seam, kind: f.kind });
      if (f.offMs !== undefined) at('fault.off', f.offMs, { fault: f.id, seam: f.seam, kind: f.kind });
    }
    const tools = new Map(h.ops.map((o) => [o.opId, o.tool]));
    const previous = new Map<string, AttemptRecord>();
    for (const a of h.attempts) {
      const before = previous.get(a.opId);
      previous.set(a.opId, a);
      at('attempt', a.startMs, attemptLine(a, h, tools.get(a.opId), before));
    }
    for (const op of h.ops) {
      // Visible content can be megabytes and may hold a leaked canary: record its size, not its text.
      const { visible, ...rest } = op;
      at('op', op.startMs, { ...rest, ...(visible === undefined ? {} : { visibleChars: visible.length }) });
    }
    for (const e of h.effects) at('effect', e.atMs, { ...e });
  }
  // Array.prototype.sort is stable, so same-time, same-type events keep their recorded order.
  return events.sort((a, b) => a.t - b.t || ORDER[a.type] - ORDER[b.type]);
}

function attemptLine(
  a: AttemptRecord,
  h: History,
  opTool: string | undefined,
  before: AttemptRecord | undefined,
): Record<string, unknown> {
  const { args, message, ...rest } = a;
  const clipped = message && message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
  const active = h.faults
    .filter((f) => f.onMs <= a.endMs && (f.offMs === undefined || f.offMs >= a.startMs))
    .map((f) => f.id);
  return {
    ...rest,
    tool: a.tool ?? opTool,
    ...(args === undefined ? {} : { args: redactDeep(args) }),
    outcome: a.ok ? 'ok' : 'failed',
    latencyMs: round1(a.endMs - a.startMs),
    ...(before ? { gapMs: round1(a.startMs - before.endMs) } : {}),
    faults: active,
    ...(clipped === undefined ? {} : { message: redactText(clipped) }),
  };
}

export function renderTrace(histories: Record<string, History>, run?: RunReport): string {
  const events = traceEvents(histories, run);
  return events.length === 0 ? '' : `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}
