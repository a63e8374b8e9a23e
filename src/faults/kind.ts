// A fault kind: one seam, one name, its parameters, and how to apply it. Adding a fault is adding a file that
// exports one of these and listing it in registry.ts.
import type { z } from 'zod';
import type { RandomStream } from '../core/random.ts';
import type { FaultEnvironment } from './context.ts';

export const SEAMS = ['network', 'edge', 'dependency', 'server'] as const;
export type Seam = (typeof SEAMS)[number];

export interface FaultContext {
  env: FaultEnvironment;
  /** The fault window's id, e.g. `f0-status`. */
  id: string;
  random: RandomStream;
}

export type RemoveFault = () => Promise<void>;

export interface FaultKind<P = any> {
  seam: Seam;
  kind: string;
  summary: string;
  /** Parameters beside seam, kind, start and stop. */
  params: z.ZodType<P>;
  /** Applies the fault on the wire (or in the process) and returns how to remove it. */
  apply(params: P, ctx: FaultContext): Promise<RemoveFault>;
}
