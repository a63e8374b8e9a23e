// A stdio MCP server the harness did not write: it spawns `command` (one process per connection) and owns the
// process, so crash and restart work; its effects are unknown unless an effects source is given. `${tmpdir}` in
// args, env values and cwd is a fresh temporary directory per profile run.
import { z } from 'zod';
import { withDurations } from '../../core/duration.ts';
import { envVarName } from '../../core/env-var-name.ts';
import { defineTargetKind } from './kind.ts';

export const stdioKind = defineTargetKind({
  schema: z.strictObject(
    withDurations({
      kind: z.literal('stdio'),
      /** The program to spawn, e.g. node or npx. */
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      /** Added to the SDK's default child environment (PATH, HOME, …). */
      env: z.record(envVarName, z.string()).default({}),
      cwd: z.string().min(1).optional(),
      /** The client's stdio framing limit in bytes (SDK default 10 MiB). */
      maxBufferBytes: z.number().int().positive().optional(),
      /** The server's dependency timeout, if known (only for the timeout-layering check). */
      dependencyTimeoutMs: z.number().int().positive().optional(),
      /**
       * `http`: the client reaches it through Faultline's Streamable HTTP bridge (one process per MCP session), behind
       * a Toxiproxy proxy, so network and HTTP-edge faults apply to it; the stdio edge faults then do not.
       */
      over: z.literal('http').optional(),
    }),
  ),
  // A server we did not write: the harness spawns and owns its process (crash, restart) and the pipe to it (the
  // stdio edge faults' interposer). Its only control channel is the interception preload, when asked for:
  // dependency faults on its outbound HTTP (targets/intercept/). Over the HTTP bridge the client's link is TCP and
  // HTTP instead of the pipe.
  capabilities: (target) => [
    'restart',
    ...(target.over === 'http' ? (['network', 'http-edge'] as const) : (['stdio-edge'] as const)),
    ...(target.intercept ? (['control'] as const) : []),
  ],
  referenceTools: false,
  listsOwnTools: () => true,
  sharedByShards: false,
  effectSources: ['read-back', 'intercept'],
  speaksPairingEra: false,
  offersCredentialRefresh: false,
});
