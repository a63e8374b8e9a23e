// What each fault window did in this server process so far, by window id: requests a dependency fault acted on,
// sessions a behaviour evicted, streams it closed, answers it changed (since the process started or was reset).
import { z } from 'zod';
import type { HitCounts } from '../../core/hit-counter.ts';
import { answers, defineControlOp } from '../op.ts';

export const faultHits = defineControlOp({
  route: 'GET /faults/hits',
  input: z.undefined(),
  output: answers<HitCounts>(),
});
