// Every control operation, by name (one file each). Adding one is adding a file and its name here; the IPC
// channel, the admin routes and their client take it from this table.
import { behaviourStats } from './behaviour-stats.ts';
import { decisions } from './decisions.ts';
import { faultHits } from './fault-hits.ts';
import { ledger } from './ledger.ts';
import { loopLag } from './loop-lag.ts';
import { quiescence } from './quiescence.ts';
import { reset } from './reset.ts';
import { setBehaviour } from './set-behaviour.ts';
import { setDependencyFaults } from './set-dependency-faults.ts';
import { sync } from './sync.ts';

export const CONTROL_OPS = {
  setDependencyFaults,
  setBehaviour,
  behaviourStats,
  faultHits,
  quiescence,
  loopLag,
  ledger,
  decisions,
  reset,
  sync,
};
