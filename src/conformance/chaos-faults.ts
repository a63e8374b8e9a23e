// The faults a conformance pass runs under: written as a profile's fault entries (`{ seam, kind, ...params }`,
// without a window: each is in place for a whole pass), limited to the seams an outside client's traffic crosses
// (the network proxy and the HTTP edge proxy in front of the server).
import { parse } from 'yaml';
import { faultEntryUnion } from '../faults/registry.ts';

export interface ChaosFault {
  /** How the table names it. */
  label: string;
  seam: 'network' | 'edge';
  kind: string;
  params: Record<string, unknown>;
}

/**
 * Used when no --fault is given: latency with jitter, resets of half the connections (the suite opens a handful
 * per scenario, so 1 % would hit none), SSE streams cut after their first event, 429s on a fifth of the requests.
 */
export const DEFAULT_CHAOS = [
  '{ seam: network, kind: latency, latency: 300, jitter: 100 }',
  '{ seam: network, kind: reset_peer, toxicity: 0.5 }',
  '{ seam: edge, kind: sse-cut, methods: [], probability: 0.5, afterEvents: 1 }',
  '{ seam: edge, kind: status, status: 429, retryAfterS: 1, methods: [], probability: 0.2 }',
];

const entry = faultEntryUnion({});

/** A `--fault` text as a fault, or an error line naming it and what was expected. */
export function chaosFault(text: string): ChaosFault {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new ChaosFaultError(
      `--fault ${text}: expected a YAML mapping like "{ seam: network, kind: latency, latency: 300 }" (${(error as Error).message.split('\n')[0]})`,
    );
  }
  const parsed = entry.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ChaosFaultError(`--fault ${text}: ${issue.path.join('.') || 'fault'}: ${issue.message}`);
  }
  const { seam, kind, ...params } = parsed.data as { seam: string; kind: string } & Record<string, unknown>;
  if (seam !== 'network' && seam !== 'edge')
    throw new ChaosFaultError(
      `--fault ${text}: expected a network or edge fault (a ${seam} fault needs the harness's own server)`,
    );
  const given = Object.entries((value ?? {}) as Record<string, unknown>)
    .filter(([k]) => k !== 'seam' && k !== 'kind')
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return { label: [kind, ...given].join(' '), seam, kind, params };
}

class ChaosFaultError extends Error {
  readonly userFacing = true;
}
