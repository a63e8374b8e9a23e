// Jepsen-style op outcome: ok; fail (known not to have taken effect); info (indeterminate).
import type { OpOutcome } from '../core/history.ts';

export function opOutcome(ok: boolean, sideEffecting: boolean, unresolvedUncertainty: boolean): OpOutcome {
  if (ok) return 'ok';
  // A read has no effect to be unsure about; a write that might have landed is indeterminate.
  return sideEffecting && unresolvedUncertainty ? 'info' : 'fail';
}
