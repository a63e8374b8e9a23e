// Report notes on protocol version negotiation: which versions the client's sessions agreed on, where it settled
// on a lower common version than it offered, and what a downgrade silently turned off.

import type { Negotiation } from '../client/session.ts';
import { resumable } from '../core/protocol-mismatch.ts';

export function negotiationNotes(negotiations: readonly Negotiation[]): string[] {
  const notes: string[] = [];
  const agreed = negotiations.filter((n) => n.negotiated !== undefined);
  const versions = new Map<string, number>();
  for (const n of agreed) versions.set(n.negotiated!, (versions.get(n.negotiated!) ?? 0) + 1);
  if (versions.size > 1 || agreed.some((n) => n.offered !== n.negotiated)) {
    const list = [...versions].map(([v, count]) => `${v} (${count} session${count === 1 ? '' : 's'})`).join(', ');
    notes.push(`negotiated protocol versions: ${list}`);
  }
  const lowered = new Map<string, number>();
  for (const n of agreed) {
    if (n.offered !== undefined && n.offered !== n.negotiated) {
      const key = `offered ${n.offered}, negotiated ${n.negotiated}`;
      lowered.set(key, (lowered.get(key) ?? 0) + 1);
    }
  }
  for (const [what, count] of lowered) {
    notes.push(`${what} (${count} session${count === 1 ? '' : 's'}): the server did not speak the offered version`);
  }
  const downgraded = agreed.filter((n) => !resumable(n.negotiated)).length;
  if (downgraded > 0) {
    notes.push(
      `${downgraded} session(s) negotiated a version older than 2025-11-25: resumability is silently off on them ` +
        '(no priming events, so a dropped tools/call response cannot be resumed with Last-Event-ID)',
    );
  }
  const failed = negotiations.filter((n) => n.error !== undefined);
  if (failed.length > 0) {
    const offered = [...new Set(failed.map((n) => n.offered ?? 'unknown'))].join(', ');
    notes.push(`${failed.length} session open(s) failed (offered ${offered}): ${failed[0].error!.slice(0, 200)}`);
  }
  return notes;
}
