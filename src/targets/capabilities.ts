// Which target kinds can take which fault kinds, known before anything runs: the profile loader turns a
// mismatch into a one-line validation error ("fault kind crash needs a target the harness can restart").
import type { Seam } from '../faults/kind.ts';
import { CAPABILITY_WORDS, type TargetCapability } from './target.ts';

/** The subset of a profile's target this needs (kind, and for url targets whether an admin endpoint is set). */
export interface TargetShape {
  kind: string;
  admin?: string;
}

export function targetCapabilities(target: TargetShape): ReadonlySet<TargetCapability> {
  switch (target.kind) {
    case 'reference':
      return new Set(['control', 'restart', 'behaviour', 'network', 'http-edge']);
    case 'reference-stdio':
      // No TCP link and no HTTP: the stdio decorator is the edge. Restart = the client's next connect spawns it.
      return new Set(['control', 'restart', 'stdio-edge']);
    case 'url':
      return new Set([
        'network',
        'http-edge',
        ...(target.admin ? (['control', 'behaviour'] as TargetCapability[]) : []),
      ]);
    default:
      return new Set();
  }
}

/** Server-seam kinds that take the server's process down. */
const LIFECYCLE_KINDS = new Set(['crash', 'restart', 'kill']);

export function faultNeeds(seam: Seam | string, kind: string): TargetCapability {
  switch (seam) {
    case 'network':
      return 'network';
    case 'dependency':
      return 'control';
    case 'edge':
      return kind.startsWith('stdio-') ? 'stdio-edge' : 'http-edge';
    default:
      return LIFECYCLE_KINDS.has(kind) ? 'restart' : 'behaviour';
  }
}

/** Why this target cannot take this fault, or undefined when it can. */
export function unsupportedFault(target: TargetShape, seam: string, kind: string): string | undefined {
  const needs = faultNeeds(seam, kind);
  if (targetCapabilities(target).has(needs)) return undefined;
  return `fault kind ${kind} needs ${CAPABILITY_WORDS[needs]}; target kind ${target.kind}${target.kind === 'url' && needs === 'control' ? ' without admin' : ''} cannot take it`;
}
