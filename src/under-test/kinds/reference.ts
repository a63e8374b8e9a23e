// The reference server in a child process the harness owns, over Streamable HTTP.
import { z } from 'zod';
import { DEFAULT_DEPENDENCY_TIMEOUT_MS } from '../../core/defaults.ts';
import { withDurations } from '../../core/duration.ts';
import { defineTargetKind } from './kind.ts';

export const referenceKind = defineTargetKind({
  schema: z.strictObject(
    withDurations({
      kind: z.literal('reference'),
      /** Resumability through the server's event store. */
      eventStore: z.boolean().default(true),
      retryIntervalMs: z.number().int().positive().optional(),
      /** The server's timeout on dependency calls (client > server > dependency). */
      dependencyTimeoutMs: z.number().int().positive().default(DEFAULT_DEPENDENCY_TIMEOUT_MS),
      /** How long the server honours a request state it handed out with input_required (transfer_funds; 10 min). */
      requestStateTtlMs: z.number().int().positive().optional(),
      /** Deliberately pass raw dependency errors through (the leak scan's negative control). */
      leaky: z.boolean().default(false),
    }),
  ),
  capabilities: () => ['control', 'restart', 'behaviour', 'network', 'http-edge'],
  referenceTools: true,
  listsOwnTools: () => false,
  sharedByShards: false,
  effectSources: [],
  speaksPairingEra: true,
  offersCredentialRefresh: true,
});
