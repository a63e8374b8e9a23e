// The client the policies see, whichever SDK speaks underneath: connection.ts opens SDK 1.32's, sdk2-client.ts
// adapts SDK 2.4's to the same shape.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** What policies call on a session's client (the shape of SDK 1.32's Client; SDK 2.4's is adapted to it). */
export type McpClient = Pick<Client, 'callTool' | 'listTools'>;
/** A connection's client: the policies' part, and `ping`, the start-up calibration's no-effect request. */
export type ConnectionClient = McpClient & Pick<Client, 'ping'>;
