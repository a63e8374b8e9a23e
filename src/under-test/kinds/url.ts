// A server someone else runs (docker-compose, another machine); loopback unless --allow-non-loopback.
import { z } from 'zod';
import { withDurations } from '../../core/duration.ts';
import { envVarName } from '../../core/env-var-name.ts';
import { defineTargetKind } from './kind.ts';

export const urlKind = defineTargetKind({
  schema: z.strictObject(
    withDurations({
      kind: z.literal('url'),
      /** The MCP endpoint, e.g. http://127.0.0.1:3001/mcp */
      url: z.url({ protocol: /^http$/ }),
      /** Its control API (`faultline server --admin-port`), e.g. http://127.0.0.1:3002: dependency faults, ledger. */
      admin: z.url({ protocol: /^https?$/ }).optional(),
      /** Environment variable holding the admin bearer token. */
      adminTokenEnv: envVarName.default('FAULTLINE_ADMIN_TOKEN'),
      /** The server's dependency timeout, if known (only for the timeout-layering check). */
      dependencyTimeoutMs: z.number().int().positive().optional(),
    }),
  ),
  // Control and server behaviours only through the reference server's admin endpoint; same tool names prove nothing
  // without it.
  capabilities: (target) => ['network', 'http-edge', ...(target.admin ? (['control', 'behaviour'] as const) : [])],
  referenceTools: false,
  listsOwnTools: (target) => target.admin === undefined,
  sharedByShards: true,
  effectSources: [],
  speaksPairingEra: false,
  offersCredentialRefresh: false,
  lacking: (target, capability) =>
    target.admin === undefined && capability === 'control' ? 'without admin' : undefined,
});
