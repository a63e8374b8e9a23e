// A Streamable HTTP server we did not write: loopback unless allowed, no admin endpoint; its effects come in
// through the profile's `effects:` source, if any.
import type { Profile } from '../../profile/schema.ts';
import { expandRecord } from '../../targets/placeholders.ts';
import { assertLoopbackUrl, RemoteTarget } from '../../targets/remote-target.ts';
import type { TargetStart } from './start.ts';

function foreignHttpTarget(url: string, allowNonLoopback: boolean): RemoteTarget {
  assertLoopbackUrl('target.url', url, allowNonLoopback);
  return new RemoteTarget(url, undefined, 'http');
}

export const startHttp: TargetStart<Extract<Profile['target'], { kind: 'http' }>> = async (target, ctx) => {
  const remote = foreignHttpTarget(target.url, ctx.allowNonLoopback);
  return {
    link: 'tcp',
    server: remote,
    upstream: new URL(remote.url),
    headers: expandRecord(target.headers, ctx.placeholders, 'target.headers'),
    notes: () =>
      !remote.hasControl && !remote.observesEffects
        ? ['http target: no dependency faults and no ledger (effects unknown)']
        : [],
    stop: async () => {},
    sink: remote,
  };
};
