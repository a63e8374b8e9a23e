// Every server-behaviour fault kind (one file each), listed once so registry.ts needs a single line.
import type { FaultKind } from './kind.ts';
import { serverCrash } from './server-crash.ts';
import { serverEvictSessions } from './server-evict-sessions.ts';
import { serverGetStreamDrop } from './server-get-stream-drop.ts';
import { serverProtocolVersion } from './server-protocol-version.ts';
import { serverStreamClose } from './server-stream-close.ts';

export const SERVER_FAULTS: readonly FaultKind[] = [
  serverEvictSessions,
  serverStreamClose,
  serverGetStreamDrop,
  serverProtocolVersion,
  serverCrash,
];
