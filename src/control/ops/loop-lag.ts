// How late the server process's event loop ran since the last call (the first call starts watching). The harness
// calls it when the workload starts and when it ends: a server starved of CPU mid-run answers late for the machine's
// sake, not its own (measure/calibration.ts).
import { z } from 'zod';
import type { LoopLag } from '../../core/loop-lag.ts';
import { answers, defineControlOp } from '../op.ts';

export const loopLag = defineControlOp({
  route: 'GET /loop-lag',
  input: z.undefined(),
  output: answers<LoopLag | null>(),
});
