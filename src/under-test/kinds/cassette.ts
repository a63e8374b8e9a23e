// A session recorded by `faultline record`, served back by Faultline's replay server (a stdio process, or over
// Faultline's HTTP bridge with `over: http`), so every fault that reaches a stdio or HTTP server reaches the replay.
// Its effects are unknown: a replay changes nothing.
import { z } from 'zod';
import { defineTargetKind } from './kind.ts';
import { stdioKind } from './stdio.ts';

export const cassetteKind = defineTargetKind({
  schema: z.strictObject({
    kind: z.literal('cassette'),
    /** The cassette (JSONL), relative to the profile's file. */
    file: z.string().min(1),
    /** `http`: the client reaches the replay through Faultline's Streamable HTTP bridge, behind a Toxiproxy proxy. */
    over: z.literal('http').optional(),
  }),
  // The replay server is a stdio process the harness owns, as a foreign stdio server is (no preload).
  capabilities: (target) => stdioKind.capabilities({ kind: 'stdio', over: target.over }),
  referenceTools: false,
  listsOwnTools: () => true,
  sharedByShards: false,
  effectSources: ['read-back'],
  speaksPairingEra: false,
  offersCredentialRefresh: false,
});
