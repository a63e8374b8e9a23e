// The reference server over stdio: the client spawns it (one child per connection) and talks newline JSON.
import { z } from 'zod';
import { DEFAULT_DEPENDENCY_TIMEOUT_MS } from '../../core/defaults.ts';
import { withDurations } from '../../core/duration.ts';
import { defineTargetKind } from './kind.ts';

export const referenceStdioKind = defineTargetKind({
  schema: z.strictObject(
    withDurations({
      kind: z.literal('reference-stdio'),
      dependencyTimeoutMs: z.number().int().positive().default(DEFAULT_DEPENDENCY_TIMEOUT_MS),
      leaky: z.boolean().default(false),
      /** The client's stdio framing limit in bytes (SDK default 10 MiB). */
      maxBufferBytes: z.number().int().positive().optional(),
    }),
  ),
  // No TCP link and no HTTP: the interposer on the stdio pipe is the edge. Restart = the client's next connect spawns it.
  capabilities: () => ['control', 'restart', 'stdio-edge'],
  referenceTools: true,
  listsOwnTools: () => false,
  sharedByShards: false,
  effectSources: [],
  speaksPairingEra: false,
  offersCredentialRefresh: false,
});
