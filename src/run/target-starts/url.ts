// A server already running at a URL (the reference server elsewhere, with its admin endpoint, or any server
// without one). It outlives runs: each profile starts from an empty ledger, state and fault set, unless other
// shards are using it (scoped keys keep their effects apart instead).
import type { Profile } from '../../profile/schema.ts';
import { couldNotConnect, remoteTargetFrom } from '../../targets/remote-target.ts';
import type { TargetStart } from './start.ts';

export const startUrl: TargetStart<Extract<Profile['target'], { kind: 'url' }>> = async (target, ctx) => {
  const remote = remoteTargetFrom(target, ctx.allowNonLoopback);
  if (remote.hasControl && !ctx.keysScoped) await remote.reset();
  return {
    link: 'tcp',
    server: remote,
    upstream: new URL(remote.url),
    notes: () =>
      !remote.hasControl && !remote.observesEffects
        ? ['url target without admin: no dependency faults and no ledger (effects unknown)']
        : [],
    connectFailure: (error) => couldNotConnect(remote.url, error),
    stop: async () => {},
  };
};
