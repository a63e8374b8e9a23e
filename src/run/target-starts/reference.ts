// The reference server in a child process the harness owns, reached over Streamable HTTP.
import type { Profile } from '../../profile/schema.ts';
import { ServerHandle } from '../../targets/child-target.ts';
import type { TargetStart } from './start.ts';

export const startReference: TargetStart<Extract<Profile['target'], { kind: 'reference' }>> = async (target, ctx) => {
  const server = await ServerHandle.start(
    {
      seed: ctx.seed,
      eventStore: target.eventStore,
      retryIntervalMs: target.retryIntervalMs,
      dependencyTimeoutMs: target.dependencyTimeoutMs,
      leaky: target.leaky,
      requestStateTtlMs: target.requestStateTtlMs,
      frontEnd: ctx.pairing.server,
    },
    ctx.signal,
  );
  return { link: 'tcp', server, upstream: new URL(server.url), notes: () => [], stop: () => server.stop() };
};
