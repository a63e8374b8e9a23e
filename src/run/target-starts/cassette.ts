// A recorded session served back by Faultline's replay server: a stdio target whose command is that server, so
// everything a foreign stdio server gets (the stdio edge, crash and restart, or the HTTP bridge) the replay gets.
import type { Profile } from '../../profile/schema.ts';
import { cassetteAsStdio } from '../../targets/cassette-target.ts';
import type { TargetStart } from './start.ts';
import { startStdio } from './stdio.ts';

export const startCassette: TargetStart<Extract<Profile['target'], { kind: 'cassette' }>> = (target, ctx) =>
  startStdio(cassetteAsStdio(target, ctx.profileFile), ctx);
