// Rows for a failed negotiation, whatever threw it: our discovery guard, the SDK 2.4 pin, a refused version.
import { ProtocolVersionRejected } from '../../core/protocol-mismatch.ts';
import { type Classified, failure } from '../classified.ts';
import { AmbiguousDiscovery } from '../discovery-tap.ts';
import type { ClassifyRule } from './rule.ts';

/** The request was refused for its protocol version before it ran: a new connection negotiates again. */
export function versionRefused(message: string): Classified {
  return failure({
    category: 'PROTO',
    errorCode: 'PROTO.VERSION_REFUSED',
    retryable: true,
    uncertain: false,
    renegotiate: true,
    message,
  });
}

export const NEGOTIATION_RULES: ClassifyRule[] = [
  {
    // Our own refusal of a fallback on no evidence: nothing was called, so probing again later is safe.
    name: 'discovery-ambiguous',
    matches: (s) => s.error instanceof AmbiguousDiscovery,
    classify: ({ message }) =>
      failure({
        category: 'PROTO',
        errorCode: 'PROTO.DISCOVERY_AMBIGUOUS',
        retryable: true,
        uncertain: false,
        message,
      }),
  },
  {
    // SDK 2.4 pinned: the probe reached a server that did not offer the pinned version (a 2025-only one answers
    // server/discover with a 400). Nothing was called; in a fleet another replica may offer it, so probe again.
    name: 'pin-not-offered',
    matches: (s) => /did not offer pinned protocol version \S+ via server\/discover/i.test(s.message),
    classify: ({ message }) =>
      failure({
        category: 'PROTO',
        errorCode: 'PROTO.PIN_NOT_OFFERED',
        retryable: true,
        uncertain: false,
        renegotiate: true,
        message,
      }),
  },
  {
    // Version negotiation failed: our own check, or the SDK's (a plain Error, so its text is all there is).
    name: 'version-unsupported',
    matches: (s) => s.error instanceof ProtocolVersionRejected || /protocol version is not supported/i.test(s.message),
    classify: ({ message }) =>
      failure({
        category: 'PROTO',
        errorCode: 'PROTO.VERSION_UNSUPPORTED',
        retryable: false,
        uncertain: false,
        message,
      }),
  },
];
