// The client the policies see, whichever SDK speaks underneath: connection.ts opens SDK 1.32's, sdk2-client.ts
// adapts SDK 2.4's to the same shape.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TaskClient } from './task-client.ts';

/** What policies call on a session's client (the shape of SDK 1.32's Client; SDK 2.4's is adapted to it). */
export type McpClient = Pick<Client, 'callTool' | 'listTools'> & {
  /** A task-only tool's call (task-client.ts): SDK 2.4 over HTTP only; absent elsewhere. */
  callTask?: TaskClient['callTool'];
};
/** A connection's client: the policies' part, and `ping`, the start-up calibration's no-effect request. */
export type ConnectionClient = McpClient & Pick<Client, 'ping'>;
