// A Streamable HTTP MCP server the harness did not write, reached through a Toxiproxy proxy when the profile has
// network faults and through the client's fetch (HTTP-edge faults); loopback unless --allow-non-loopback.
import { z } from 'zod';
import { withDurations } from '../../core/duration.ts';
import { defineTargetKind } from './kind.ts';

export const httpKind = defineTargetKind({
  schema: z.strictObject(
    withDurations({
      kind: z.literal('http'),
      /** The MCP endpoint, e.g. http://127.0.0.1:3001/mcp */
      url: z.url({ protocol: /^http$/ }),
      /** Sent with every request, e.g. Authorization. `${env:NAME}` takes the value from the environment. */
      headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, 'expected a header name'), z.string()).default({}),
      /** The server's dependency timeout, if known (only for the timeout-layering check). */
      dependencyTimeoutMs: z.number().int().positive().optional(),
    }),
  ),
  // A server we did not write: a Toxiproxy proxy sits in front of its URL and the client's fetch is the edge.
  capabilities: () => ['network', 'http-edge'],
  referenceTools: false,
  listsOwnTools: () => true,
  sharedByShards: true,
  effectSources: ['read-back'],
  speaksPairingEra: false,
  offersCredentialRefresh: false,
});
