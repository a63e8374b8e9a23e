// Whether the server is quiet: tool handlers still in flight, time since anything last happened, the last effect.
// The harness drains on it before it reads the ledger (run/drain.ts).
import { z } from 'zod';
import { answers, defineControlOp } from '../op.ts';

/** What the quiescence control operation answers. */
export interface Quiescence {
  /** Tool handlers (and tracked background work) running now. */
  inFlight: number;
  /** Since the last handler started or ended, or the last effect, whichever is later (ms, the server's clock). */
  idleMs: number;
  /** When the last effect was recorded (epoch ms); null when there is none. */
  lastEffectAtMs: number | null;
}

export const quiescence = defineControlOp({
  route: 'GET /quiescence',
  input: z.undefined(),
  output: answers<Quiescence>(),
});
