// The reference server spawned by the client over stdio: the interposer on its pipe is the edge seam.
import type { Profile } from '../../profile/schema.ts';
import { StdioTarget } from '../../targets/stdio-target.ts';
import type { TargetStart } from './start.ts';

export const startReferenceStdio: TargetStart<Extract<Profile['target'], { kind: 'reference-stdio' }>> = async (
  target,
  ctx,
) => ({
  link: 'pipe',
  server: new StdioTarget({ seed: ctx.seed, ...target, edge: ctx.stdio, frontEnd: ctx.pairing.server }),
  mcpUrl: 'stdio:reference',
  pairedClient: true,
});
