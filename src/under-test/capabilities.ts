// What each target kind can do, known before anything runs: the profile loader checks every fault kind's declared
// `needs` against it and turns a mismatch into a one-line error ("fault kind crash needs a target the harness
// can restart").
import { CAPABILITY_WORDS, type TargetCapability } from './target.ts';

/** The subset of a profile's target this needs (kind, and for url targets whether an admin endpoint is set). */
export interface TargetShape {
  kind: string;
  admin?: string;
  /** A stdio target started with the dependency interception preload (profile `effects.intercept`). */
  intercept?: boolean;
  /** A stdio target behind Faultline's HTTP bridge (targets/http-bridge.ts). */
  over?: string;
}

function targetCapabilities(target: TargetShape): ReadonlySet<TargetCapability> {
  switch (target.kind) {
    case 'reference':
      return new Set(['control', 'restart', 'behaviour', 'network', 'http-edge']);
    case 'reference-stdio':
      // No TCP link and no HTTP: the interposer on the stdio pipe is the edge. Restart = the client's next connect spawns it.
      return new Set(['control', 'restart', 'stdio-edge']);
    case 'url':
      return new Set([
        'network',
        'http-edge',
        ...(target.admin ? (['control', 'behaviour'] as TargetCapability[]) : []),
      ]);
    case 'stdio':
      // A server we did not write: the harness spawns and owns its process (crash, restart) and the pipe to it
      // (the stdio edge faults' interposer). Its only control channel is the interception preload, when asked for:
      // dependency faults on its outbound HTTP (targets/intercept/).
      // Over the HTTP bridge the client's link is TCP and HTTP instead of the pipe.
      return new Set([
        'restart',
        ...(target.over === 'http' ? (['network', 'http-edge'] as const) : (['stdio-edge'] as const)),
        ...(target.intercept ? (['control'] as const) : []),
      ]);
    case 'cassette':
      // The replay server is a stdio process the harness owns, as a foreign stdio server is (no preload).
      return targetCapabilities({ kind: 'stdio', over: target.over });
    case 'http':
      // A server we did not write: a Toxiproxy proxy sits in front of its URL and the client's fetch is the edge.
      return new Set(['network', 'http-edge']);
    default:
      return new Set();
  }
}

/** Why this target cannot take a fault that needs these capabilities, or undefined when it can. */
export function unsupportedFault(
  target: TargetShape,
  fault: { kind: string; needs: readonly TargetCapability[] },
): string | undefined {
  const has = targetCapabilities(target);
  const missing = fault.needs.find((need) => !has.has(need));
  if (missing === undefined) return undefined;
  return `fault kind ${fault.kind} needs ${CAPABILITY_WORDS[missing]}; target kind ${target.kind}${target.over ? ` over ${target.over}` : ''}${target.kind === 'url' && missing === 'control' ? ' without admin' : ''} cannot take it`;
}
