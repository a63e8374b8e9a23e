// Every fault kind a profile can name, by seam and kind, and the profile's fault union generated from them: each
// kind is one strict object `{ seam, kind, ...common window fields, ...its params }`, discriminated by seam and
// then by kind, so the JSON Schema shows every fault's parameters.
import { z } from 'zod';
import { didYouMean } from '../core/did-you-mean.ts';
import { withDurations } from '../core/duration.ts';
import { excerpt } from '../core/profile-error.ts';
import { DEPENDENCY_FAULTS } from './dependency/kinds.ts';
import { edgeCancelRace } from './edge/cancel-race.ts';
import { edgeDiscover } from './edge/discover.ts';
import { edgeDropAfterCommit } from './edge/drop-after-commit.ts';
import { edgeHeader } from './edge/header.ts';
import { edgeInputRound } from './edge/input-round.ts';
import { edgeMcpHeaders } from './edge/mcp-headers.ts';
import { edgeMixedFleet } from './edge/mixed-fleet.ts';
import { edgeProtocolVersion } from './edge/protocol-version.ts';
import { edgeSseCut } from './edge/sse-cut.ts';
import { edgeStatus } from './edge/status.ts';
import { STDIO_EDGE_FAULTS } from './edge/stdio/index.ts';
import { edgeStreamAbandon } from './edge/stream-abandon.ts';
import { edgeStripTrace } from './edge/strip-trace.ts';
import { edgeUnsupportedVersion } from './edge/unsupported-version.ts';
import { type FaultKind, SEAMS, type Seam } from './kind.ts';
import { NETWORK_TOXICS, networkDown } from './network/toxic.ts';
import { SERVER_FAULTS } from './server/kinds.ts';

export const FAULTS: readonly FaultKind[] = [
  ...DEPENDENCY_FAULTS,
  ...NETWORK_TOXICS,
  networkDown,
  edgeStatus,
  edgeSseCut,
  edgeHeader,
  edgeMcpHeaders,
  edgeDiscover,
  edgeProtocolVersion,
  edgeStripTrace,
  edgeDropAfterCommit,
  edgeStreamAbandon,
  edgeUnsupportedVersion,
  edgeMixedFleet,
  edgeInputRound,
  edgeCancelRace,
  ...SERVER_FAULTS,
  ...STDIO_EDGE_FAULTS,
];

export function findFaultKind(seam: string, kind: string): FaultKind | undefined {
  return FAULTS.find((f) => f.seam === seam && f.kind === kind);
}

function kindsOfSeam(seam: Seam): FaultKind[] {
  return FAULTS.filter((f) => f.seam === seam);
}

type Options = [z.ZodObject, ...z.ZodObject[]];

/** The profile's fault entry: one strict object per kind, the `common` fields (start, stop, ...) beside its params. */
export function faultEntryUnion(common: z.ZodRawShape) {
  const bySeam = SEAMS.map((seam) => {
    const kinds = kindsOfSeam(seam);
    const kindNames = kinds.map((k) => k.kind);
    const names = kindNames.join(', ');
    const options = kinds.map((k) =>
      // Every parameter named in milliseconds takes a duration text too ("600ms", "2s").
      z.strictObject({ seam: z.literal(seam), kind: z.literal(k.kind), ...common, ...withDurations(k.params.shape) }),
    );
    return z.discriminatedUnion('kind', options as unknown as Options, {
      error: (issue) => {
        const kind = (issue.input as { kind?: unknown } | undefined)?.kind;
        return kind === undefined
          ? `a ${seam} fault needs a kind; expected one of: ${names}`
          : `unknown ${seam} fault kind ${excerpt(kind)}${didYouMean(String(kind), kindNames)}; expected one of: ${names}`;
      },
    });
  });
  return z.discriminatedUnion('seam', bySeam as unknown as Options, {
    error: (issue) => {
      const seam = (issue.input as { seam?: unknown } | undefined)?.seam;
      const hint = seam === undefined ? '' : ` (found ${excerpt(seam)}${didYouMean(String(seam), SEAMS)})`;
      return `expected a seam: one of ${SEAMS.join(', ')}${hint}`;
    },
  });
}
