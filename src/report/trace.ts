// trace.jsonl: every attempt, op, fault window event and effect of every profile, one JSON object per line,
// sorted by time, so a failure can be read as one story.
import type { History } from '../core/history.ts';

export interface TraceEvent {
  type: 'profile.start' | 'profile.end' | 'fault.on' | 'fault.off' | 'attempt' | 'op' | 'effect';
  profile: string;
  /** Epoch ms: attempts and ops at their start, effects when performed, faults when applied or removed. */
  t: number;
  /** ms since the profile's run start. */
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

export function traceEvents(histories: Record<string, History>): TraceEvent[] {
  const events: TraceEvent[] = [];
  for (const [profile, h] of Object.entries(histories)) {
    const at = (type: TraceEvent['type'], t: number, rest: Record<string, unknown>) =>
      events.push({ type, profile, t, tRelMs: Math.round((t - h.startMs) * 10) / 10, ...rest });
    at('profile.start', h.startMs, {});
    at('profile.end', h.endMs, {});
    for (const f of h.faults) {
      at('fault.on', f.onMs, { fault: f.id, seam: f.seam, kind: f.kind });
      if (f.offMs !== undefined) at('fault.off', f.offMs, { fault: f.id, seam: f.seam, kind: f.kind });
    }
    for (const a of h.attempts) {
      const message = a.message && a.message.length > MAX_MESSAGE ? `${a.message.slice(0, MAX_MESSAGE)}…` : a.message;
      // As for ops below: the size of what the model saw, not its text.
      const { visible, notifications, ...rest } = a;
      at('attempt', a.startMs, {
        ...rest,
        ...(message === undefined ? {} : { message }),
        ...(visible === undefined ? {} : { visibleChars: visible.length }),
        ...(notifications === undefined ? {} : { notifications: notifications.length }),
      });
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

export function renderTrace(histories: Record<string, History>): string {
  const events = traceEvents(histories);
  return events.length === 0 ? '' : `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}
