// A target kind: one file per kind, as fault kinds are (faults/kind.ts). It declares the profile's `target:` block
// for it (the schema), what such a target can do (capabilities, checked against every fault's `needs`) and the
// traits the loader and the run ask of a target. The registry (index.ts) derives the profile's target union from
// these files.
import type { z } from 'zod';
import type { TargetCapability } from '../target.ts';

/** The part of a profile's target capabilities depend on (and, for a stdio server, the profile's interception). */
export interface TargetShape {
  kind: string;
  admin?: string;
  /** A stdio target started with the dependency interception preload (profile `effects.intercept`). */
  intercept?: boolean;
  /** A stdio target behind Faultline's HTTP bridge (targets/http-bridge.ts). */
  over?: string;
}

export interface TargetKind<S extends z.ZodObject = z.ZodObject> {
  /** The profile's `target:` block of this kind (its `kind` literal included). */
  schema: S;
  capabilities(target: TargetShape): readonly TargetCapability[];
  /** Its tools are the reference server's, checked against the reference catalogue at load. */
  referenceTools: boolean;
  /**
   * Its tools are not known to be the reference server's: its tools/list is checked before the run and its tool
   * traits come from its annotations and the profile only (same tool names prove nothing).
   */
  listsOwnTools(target: TargetShape): boolean;
  /** Every shard of a sharded run reaches the same server (reached by URL), so the run's keys must be scoped. */
  sharedByShards: boolean;
  /**
   * How a profile's `effects:` may see this target's effects: read-back probes, the dependency interception preload
   * (a Node server the harness starts). None for a target with its own ledger (or none to offer).
   */
  effectSources: readonly EffectSourceKind[];
  /** Its front end is the reference server's of the run's pairing, so what era it speaks is known. */
  speaksPairingEra: boolean;
  /** It offers the reference server's credential refresh tool (a profile's `client.credentialRefresh`). */
  offersCredentialRefresh: boolean;
  /** Words naming what this target lacks for a capability it does not have (" without admin"), for the error line. */
  lacking?(target: TargetShape, capability: TargetCapability): string | undefined;
}

export type EffectSourceKind = 'read-back' | 'intercept';

export function defineTargetKind<S extends z.ZodObject>(kind: TargetKind<S>): TargetKind<S> {
  return kind;
}
