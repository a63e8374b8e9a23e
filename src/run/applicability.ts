// Whether a profile means anything in a pairing, and why not: a fault whose mechanism the 2026-07-28 era removed
// (sessions, Last-Event-ID resumption, the GET stream, initialize) makes the profile n/a for a pairing that speaks
// that era, and a fault only that era's wire has (the Mcp-* routing headers) makes it n/a for a legacy pairing;
// either is reported as not applicable, never as failed. stdio has no SDK 2.4 client here and no dual
// front end, so a stdio profile runs only with SDK 1.32 on both sides.
import type { Pairing } from '../core/pairing.ts';
import { findFaultKind } from '../faults/registry.ts';
import type { Profile } from '../profile/schema.ts';

export function notApplicable(profile: Pick<Profile, 'target' | 'faults'>, pairing: Pairing): string | undefined {
  if (profile.target.kind === 'reference-stdio' && (pairing.client.sdk !== 'sdk1' || pairing.server !== 'sdk1')) {
    return 'stdio: the pairing needs the SDK 2.4 client or the dual HTTP front end, which run over HTTP only here';
  }
  for (const fault of profile.faults) {
    const kind = findFaultKind(fault.seam, fault.kind);
    const reason = pairing.era === 'modern' ? kind?.removedOnModernWire : kind?.onlyOnModernWire;
    if (reason) return `${fault.seam} fault ${fault.kind}: ${reason}`;
  }
  return undefined;
}
