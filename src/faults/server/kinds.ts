// Every server-behaviour fault kind (one file each), listed once so registry.ts needs a single line.
import type { FaultKind } from '../kind.ts';
import { serverCrash } from './crash.ts';
import { serverEvictSessions } from './evict-sessions.ts';
import { serverGetStreamDrop } from './get-stream-drop.ts';
import { serverProtocolVersion } from './protocol-version.ts';
import { serverStreamClose } from './stream-close.ts';

export const SERVER_FAULTS: readonly FaultKind[] = [
  serverEvictSessions,
  serverStreamClose,
  serverGetStreamDrop,
  serverProtocolVersion,
  serverCrash,
];
