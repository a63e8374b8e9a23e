// A fault kind: one seam, one name, its parameters, what it needs from a target, and how to apply it. Adding a
// fault is adding a file that exports one of these and listing it in its seam's list (registry.ts builds the
// profile's fault union, the JSON Schema and `faultline kinds` from them).
import type { z } from 'zod';
import type { FaultArea } from '../core/fault-areas.ts';
import type { OpScope } from '../core/op-scope.ts';
import type { RandomStream } from '../core/random.ts';
import type { TargetCapability } from '../under-test/target.ts';
import type { FaultEnvironment } from './context.ts';

export const SEAMS = ['network', 'edge', 'dependency', 'server'] as const;
export type Seam = (typeof SEAMS)[number];

export interface FaultContext {
  env: FaultEnvironment;
  /** The fault window's id, e.g. `f0-status`. */
  id: string;
  random: RandomStream;
  /**
   * An op window on a seam that scopes per request: the fault touches only requests of these ops (the seam reads
   * the op from each request's logical key). Absent: every request while the window is in place.
   */
  ops?: OpScope;
}

/**
 * Seams that tell each request's op (the trace id and attempt travel with it): an op window there is exact, the
 * fault is in place all along and picks the window's ops' requests. The others (network toxics act on bytes,
 * server behaviours on sessions) open an op window when its first op is issued and close it when its last has
 * ended: progress-driven, the same on any machine only as far as ops in flight allow.
 */
export const PER_REQUEST_SEAMS: readonly Seam[] = ['dependency', 'edge'];

export function scopesPerRequest(seam: Seam): boolean {
  return PER_REQUEST_SEAMS.includes(seam);
}

/** The network seam's faults are toxics on a Toxiproxy proxy in the MCP link: only they need one there. */
export function needsLinkProxy(faults: readonly { seam: Seam }[]): boolean {
  return faults.some((f) => f.seam === 'network');
}

/** A fault window in place at its seam: how to take it away, and what it did (counted by the seam). */
export interface AppliedFault {
  /**
   * Takes the fault away; resolves once it is gone at the seam, with when the seam took it away (epoch ms) when
   * the seam can tell, else undefined (the driver then takes the midpoint of the call).
   */
  remove(): Promise<number | undefined>;
  /**
   * What the window did so far, counted where it acted: requests a dependency fault answered or spoiled, chunks and
   * connections a toxic touched, exchanges an edge rule rewrote, sessions evicted, processes killed. null when the
   * seam cannot count (e.g. an external Toxiproxy).
   */
  hits(): Promise<number | null>;
}

export interface FaultKind<S extends z.ZodObject = any> {
  seam: Seam;
  kind: string;
  /** One line for `faultline kinds`. */
  summary: string;
  /** Parameters beside seam, kind, start and stop: a strict object, units in `.describe()`. */
  params: S;
  /** What the target must be able to do (the profile loader refuses a target that cannot). */
  needs: readonly TargetCapability[];
  /** The areas of MCP server faults it injects into (core/fault-areas.ts; `faultline kinds --coverage`). */
  covers: readonly FaultArea[];
  /**
   * Why the fault means nothing on the 2026-07-28 wire (the mechanism it acts on was removed there): a profile
   * with it is reported n/a, not failed, for a pairing that speaks that era.
   */
  removedOnModernWire?: string;
  /**
   * The fault means something only in these pairings (by name) or on this era's wire: a profile with it is
   * reported n/a, with the reason, in every other pairing.
   */
  onlyIn?: { pairings?: readonly string[]; era?: 'legacy' | 'modern'; reason: string };
  /**
   * The fault does its work once, as its window opens (a kill): no call has to cross the window to be hit, so the
   * start-up calibration does not judge the machine against the window's length.
   */
  actsAtStart?: true;
  /** Set-up before the run when a profile has this kind (e.g. a standby process for a fast restart). */
  prepare?(env: FaultEnvironment): void | Promise<void>;
  /** Applies the fault on the wire (or in the process); resolves once it is in place. */
  apply(params: z.output<S>, ctx: FaultContext): Promise<AppliedFault>;
}

/** Types `apply` from the parameter schema. */
export function defineFaultKind<S extends z.ZodObject>(kind: FaultKind<S>): FaultKind<S> {
  return kind;
}
