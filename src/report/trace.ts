// trace.jsonl: every attempt, op, fault window event and effect of every profile, one JSON object per line,
// profile by profile in the report's order, each sorted by time, so a failure can be read as one story (profiles
// run at once, `--jobs`, do not interleave; one after another, that is the order of time). An attempt's line
// carries what a person debugging needs: op, attempt, tool, arguments, idempotency key, outcome, category, code,
// HTTP status, server request id, the backoff before it, its latency, the fault windows active while it ran, its
// message and notifications; arguments, message and notifications redacted as history.jsonl keeps them
// (core/kept-text.ts). Fields the client did not record are absent; `gapMs` (time since the op's previous attempt ended)
// is measured, not recorded. Model-visible text is given by its length (visibleChars), on ops and attempts alike.
import type { AttemptRecord, History } from '../core/history.ts';
import { historyOf } from '../core/history-key.ts';
import { type RecordIndex, recordIndex } from '../core/history-records.ts';
import { keptField } from '../core/kept-text.ts';
import type { Effect } from '../core/ledger.ts';
import type { RunReport } from '../measure/run-report.ts';
import { workloadOffsetMs } from './time-base.ts';

export interface TraceEvent {
  type: 'profile.start' | 'profile.end' | 'fault.on' | 'fault.off' | 'attempt' | 'op' | 'effect';
  profile: string;
  /** The protocol pairing, when the run named one (a run in several has a profile once per pairing). */
  pairing?: string;
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

/** Event types by code (their place in ORDER), so a slot stores a byte, not a string. */
const TYPES = (Object.keys(ORDER) as TraceEvent['type'][]).sort((a, b) => ORDER[a] - ORDER[b]);

/**
 * The events to be written: when, what, and where each one's record is (built only when written, one at a time).
 * Kept as columns: a long run has hundreds of thousands of events, and an object per event costs about 70 B where
 * the columns cost 19 (both by their layout).
 */
class Slots {
  readonly t: Float64Array;
  readonly type: Uint8Array;
  readonly profile: Uint16Array;
  /** Index into the profile's faults, attempts, ops or effects, by type. */
  readonly index: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.t = new Float64Array(capacity);
    this.type = new Uint8Array(capacity);
    this.profile = new Uint16Array(capacity);
    this.index = new Int32Array(capacity);
  }

  push(t: number, type: TraceEvent['type'], profile: number, index: number): void {
    const i = this.length++;
    this.t[i] = t;
    this.type[i] = ORDER[type];
    this.profile[i] = profile;
    this.index[i] = index;
  }

  /** Slot numbers by profile, then time, then type; same time and type keep their recorded order. */
  order(): Uint32Array {
    const order = new Uint32Array(this.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return order.sort(
      (a, b) => this.profile[a] - this.profile[b] || this.t[a] - this.t[b] || this.type[a] - this.type[b] || a - b,
    );
  }
}

interface Source {
  profile: string;
  /** The pairing it ran in, in a run that named one. */
  pairing?: string;
  h: History;
  /** Its attempts and ops, whole, by number (read from the run's record log one at a time when it has one). */
  records: RecordIndex;
  /** Its effects by number, read in one pass (a run's are read back from its spill, never held whole). */
  effects: EffectReader;
  origin: number;
}

/**
 * Effects by number from one pass over them. Asked for in time order, which is the ledger's but for effects of
 * the same millisecond or from another process: the ones passed over on the way are kept until asked for.
 */
class EffectReader {
  private pass: Iterator<Effect> | undefined;
  private read = 0;
  private readonly held = new Map<number, Effect>();

  constructor(private readonly effects: Iterable<Effect>) {}

  get(index: number): Effect {
    const held = this.held.get(index);
    if (held) {
      this.held.delete(index);
      return held;
    }
    this.pass ??= this.effects[Symbol.iterator]();
    for (;;) {
      const next = this.pass.next();
      if (next.done) throw new Error(`trace: effect ${index} is not in the ledger (${this.read} read)`);
      if (this.read++ === index) return next.value;
      this.held.set(this.read - 1, next.value);
    }
  }

  /** Ends the pass (its read buffer goes back to the spill). */
  close(): void {
    this.pass?.return?.();
    this.pass = undefined;
  }
}

/** `run` gives each profile's workload start; without it, the first op's start is used. */
export function traceEvents(histories: Record<string, History>, run?: RunReport): TraceEvent[] {
  return [...traceEventStream(histories, run)];
}

/**
 * The events in order, each built when asked for: only the small sort slots are held, so a long run's trace is
 * written without holding its lines (a run's records are read whole from its log when their event is written).
 */
function* traceEventStream(histories: Record<string, History>, run?: RunReport): Generator<TraceEvent> {
  const sources: Source[] = [];
  const indexes = new Map(Object.values(histories).map((h) => [h, recordIndex(h)]));
  const slots = new Slots(
    Object.values(histories).reduce((n, h) => {
      const { attempts, ops } = indexes.get(h)!;
      return n + 2 + 2 * h.faults.length + attempts + ops + h.effects.length;
    }, 0),
  );
  for (const [key, h] of Object.entries(histories)) {
    const records = indexes.get(h)!;
    const report = run?.profiles.find((p) => historyOf(histories, p) === h);
    const profile = report?.name ?? key;
    const p = sources.length;
    const at = (type: TraceEvent['type'], t: number, index: number) => slots.push(t, type, p, index);
    at('profile.start', h.startMs, -1);
    at('profile.end', h.endMs, -1);
    for (const [i, f] of h.faults.entries()) {
      at('fault.on', f.onMs, i);
      if (f.offMs !== undefined) at('fault.off', f.offMs, i);
    }
    for (let i = 0; i < records.attempts; i++) at('attempt', records.attemptStart(i), i);
    for (let i = 0; i < records.ops; i++) at('op', records.opStart(i), i);
    let effect = 0;
    for (const e of h.effects) at('effect', e.atMs, effect++);
    const origin = h.startMs + workloadOffsetMs(report ?? {}, h);
    sources.push({ profile, pairing: report?.pairing, h, records, effects: new EffectReader(h.effects), origin });
  }
  let previous: Source | undefined;
  for (const i of slots.order()) {
    const slot = { t: slots.t[i], type: TYPES[slots.type[i]], index: slots.index[i] };
    const source = sources[slots.profile[i]];
    if (source !== previous) previous?.effects.close();
    previous = source;
    yield eventOf(slot, source);
  }
  previous?.effects.close();
}

/**
 * The event's line, its fields set one by one in the order the object spreads `{ ...head, ...record, ...extra }`
 * would give them (a key already set keeps its place): one object an event, where the spreads built four.
 */
function eventOf(
  { t, type, index }: { t: number; type: TraceEvent['type']; index: number },
  { profile, pairing, h, records, effects, origin }: Source,
): TraceEvent {
  const tRelMs = round1(t - origin);
  const event: TraceEvent = pairing ? { type, profile, pairing, t, tRelMs } : { type, profile, t, tRelMs };
  switch (type) {
    case 'profile.start':
    case 'profile.end':
      return event;
    case 'fault.on':
    case 'fault.off': {
      const f = h.faults[index];
      event.fault = f.id;
      event.seam = f.seam;
      event.kind = f.kind;
      return event;
    }
    case 'attempt': {
      const a = records.attempt(index);
      const before = records.attemptBefore(index);
      const previousEnd = before < 0 ? Number.NaN : records.attempt(before).endMs;
      return attemptLine(event, a, h, a.tool ?? records.opOf(index)?.tool, previousEnd);
    }
    case 'op': {
      // Visible content can be megabytes and may hold a leaked canary: record its size, not its text (attempts too).
      const op = records.op(index);
      copyFields(event, op, OP_LEFT_OUT);
      if (op.visible !== undefined) event.visibleChars = op.visible.length;
      return event;
    }
    case 'effect':
      return copyFields(event, effects.get(index), NONE_LEFT_OUT);
  }
}

// A record's fields the event gives otherwise: text by its length; arguments, message and notifications as the report
// files keep them (core/kept-text.ts), a message clipped.
const OP_LEFT_OUT: ReadonlySet<string> = new Set(['visible']);
const ATTEMPT_LEFT_OUT: ReadonlySet<string> = new Set(['args', 'message', 'visible']);
const NONE_LEFT_OUT: ReadonlySet<string> = new Set();

/** Sets each of the record's fields on the event but those left out, as a spread of the record would. */
function copyFields(event: TraceEvent, record: object, leftOut: ReadonlySet<string>): TraceEvent {
  for (const key in record) if (!leftOut.has(key)) event[key] = (record as Record<string, unknown>)[key];
  return event;
}

function attemptLine(
  event: TraceEvent,
  a: AttemptRecord,
  h: History,
  opTool: string | undefined,
  previousEndMs: number,
): TraceEvent {
  const { args, message, visible, notifications } = a;
  // Redacted before it is clipped, as history.jsonl keeps it: clipped first, a secret cut at the edge would show.
  const shown = message === undefined ? undefined : (keptField('message', message) as string);
  const clipped = shown && shown.length > MAX_MESSAGE ? `${shown.slice(0, MAX_MESSAGE)}…` : shown;
  copyFields(event, a, ATTEMPT_LEFT_OUT);
  if (notifications !== undefined) event.notifications = keptField('notifications', notifications);
  if (visible !== undefined) event.visibleChars = visible.length;
  event.tool = a.tool ?? opTool;
  if (args !== undefined) event.args = keptField('args', args);
  event.outcome = a.ok ? 'ok' : 'failed';
  event.latencyMs = round1(a.endMs - a.startMs);
  if (!Number.isNaN(previousEndMs)) event.gapMs = round1(a.startMs - previousEndMs);
  event.faults = h.faults
    .filter((f) => f.onMs <= a.endMs && (f.offMs === undefined || f.offMs >= a.startMs))
    .map((f) => f.id);
  if (clipped !== undefined) event.message = clipped;
  return event;
}

export function renderTrace(histories: Record<string, History>, run?: RunReport): string {
  return [...traceLines(histories, run)].join('');
}

/** trace.jsonl line by line (each with its newline), for writing a long run's trace without holding it. */
export function* traceLines(histories: Record<string, History>, run?: RunReport): Generator<string> {
  for (const event of traceEventStream(histories, run)) yield `${JSON.stringify(event)}\n`;
}
