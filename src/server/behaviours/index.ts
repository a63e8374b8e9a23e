// Every server behaviour (one file each). The profile's server-seam kinds and the control channel's behaviour
// schema are derived from this list.
import type { ServerBehaviourKind } from './behaviour.ts';
import { evictSessions } from './evict-sessions.ts';
import { getStreamDrop } from './get-stream-drop.ts';
import { protocolVersion } from './protocol-version.ts';
import { streamClose } from './stream-close.ts';

export const BEHAVIOURS: readonly ServerBehaviourKind<any, any>[] = [
  evictSessions,
  streamClose,
  getStreamDrop,
  protocolVersion,
];
