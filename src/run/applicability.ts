// Whether a profile means anything in a pairing, and why not: a fault whose mechanism the 2026-07-28 era removed
// (sessions, Last-Event-ID resumption, the GET stream, initialize) makes the profile n/a for a pairing that speaks
// that era; it is reported as not applicable, never as failed. A fault that means something only in some pairings
// (its kind's `onlyIn`) makes the profile n/a in the others. The reference stdio server has every front end (SDK
// 2.4's serveStdio for sdk2 and dual), so a stdio profile runs in every pairing. A profile that listens
// (subscriptions/listen) or calls a task-only tool is n/a wherever the client speaks 2025-11-25.
import type { Pairing } from '../core/pairing.ts';
import { findFaultKind } from '../faults/registry.ts';
import type { Profile } from '../profile/schema.ts';
import { traitsOf } from '../server/tools/catalog.ts';

export function notApplicable(
  profile: Pick<Profile, 'faults' | 'listen'> & { workload?: Pick<Profile['workload'], 'mix'> },
  pairing: Pairing,
): string | undefined {
  // subscriptions/listen is 2026-07-28 vocabulary: a 2025-11-25 client cannot open the stream the profile measures.
  if (profile.listen && pairing.era !== 'modern')
    return 'listen: subscriptions/listen exists only on the 2026-07-28 wire';
  // So is a task (the Tasks extension): SDK 2.4 gives the 2025-11-25 task methods no runtime.
  const task = pairing.era === 'modern' ? undefined : profile.workload?.mix.find((m) => traitsOf(m.tool).runsAsTask);
  if (task) return `workload: ${task.tool} runs as a task, served only on the 2026-07-28 wire`;
  for (const fault of profile.faults) {
    const kind = findFaultKind(fault.seam, fault.kind);
    const reason =
      (pairing.era === 'modern' ? kind?.removedOnModernWire : undefined) ??
      (kind?.onlyIn && !appliesIn(kind.onlyIn, pairing) ? kind.onlyIn.reason : undefined);
    if (reason) return `${fault.seam} fault ${fault.kind}: ${reason}`;
  }
  return undefined;
}

function appliesIn(only: { pairings?: readonly string[]; era?: 'legacy' | 'modern' }, pairing: Pairing): boolean {
  return (only.pairings?.includes(pairing.name) ?? true) && (only.era === undefined || only.era === pairing.era);
}
