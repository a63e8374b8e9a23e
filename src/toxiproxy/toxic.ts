// The one tiny interface every toxic implements (Toxiproxy's toxics.Toxic plus its optional hooks), and the
// toxic as the API sees it.
import type { ToxicStub } from './stub.ts';

export type Direction = 'upstream' | 'downstream';
export type Attributes = Record<string, number>;

export interface ToxicKind {
  readonly type: string;
  /** Go struct name, for decode error messages ("LatencyToxic"). */
  readonly goName: string;
  /** Attribute names in JSON order with their Go integer type; every attribute is an integer. */
  readonly attributes: Readonly<Record<string, 'int' | 'int64'>>;
  /** For profiles: every attribute's meaning and unit; `required` ones must be set (the rest default to 0). */
  readonly docs: Readonly<Record<string, AttributeDoc>>;
  /** The toxic's loop over one stub (it calls `stub.hit()` each time it acts); absent means passthrough (noop). */
  pipe?(stub: ToxicStub, attributes: Readonly<Attributes>): Promise<void>;
  /** Per-connection, per-direction state that survives re-runs. */
  newState?(): unknown;
  /** Called when the toxic is removed from a live link (timeout closes the connection). */
  cleanup?(stub: ToxicStub): void;
  /** Set SO_LINGER=0 on both sockets when the toxic exists at connection start (reset_peer). */
  readonly resetsPeer?: boolean;
}

interface AttributeDoc {
  readonly describe: string;
  readonly required?: boolean;
  /** Smallest useful value (default 0). */
  readonly min?: number;
  /**
   * Toxiproxy names its attributes without a unit, so the unit is said here: a profile takes "600ms" for an ms one,
   * and the unit decides the largest value a profile may give (profile/limits.ts).
   */
  readonly unit: AttributeUnit;
}

/** The units of toxic attributes: times in ms or µs, sizes in bytes, rates in KB/s (1 KB = 1000 bytes). */
export type AttributeUnit = 'ms' | 'us' | 'bytes' | 'KB/s';

/** A toxic on a proxy: Toxiproxy's ToxicWrapper. */
export interface ToxicModel {
  name: string;
  type: string;
  /** As the client spelled it (Toxiproxy echoes the raw value). */
  stream: string;
  direction: Direction;
  toxicity: number;
  attributes: Attributes;
  kind: ToxicKind;
  /**
   * Times it acted (a chunk delayed, throttled, sliced or dropped; a connection cut, reset or closed late), over
   * every link. Faultline's own count: real Toxiproxy has none, so it stays out of the API's JSON.
   */
  hits: number;
  /** Its JSON text once serialized (GET /proxies repeats every toxic of every proxy); cleared when it changes. */
  jsonText?: string;
}

export interface ToxicJson {
  attributes: Attributes;
  name: string;
  type: string;
  stream: string;
  toxicity: number;
}

export function toxicJson(toxic: ToxicModel): ToxicJson {
  return {
    attributes: { ...toxic.attributes },
    name: toxic.name,
    type: toxic.type,
    stream: toxic.stream,
    toxicity: toxic.toxicity,
  };
}

export function toxicJsonText(toxic: ToxicModel): string {
  toxic.jsonText ??= JSON.stringify(toxicJson(toxic));
  return toxic.jsonText;
}

export function parseDirection(stream: string): Direction | undefined {
  const lower = stream.toLowerCase();
  return lower === 'upstream' || lower === 'downstream' ? lower : undefined;
}
