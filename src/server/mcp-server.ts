// Builds one SDK 1.32 McpServer (one per session: an McpServer owns exactly one transport) with the reference tools.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { installToolDispatcher } from './dispatch.ts';
import type { ServerRuntime } from './runtime.ts';
import { SERVER_INFO, SERVER_INSTRUCTIONS, toolListing } from './tool-listing.ts';
import { TOOLS } from './tools/index.ts';

export function createMcpServer(runtime: ServerRuntime): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, logging: {} },
    instructions: SERVER_INSTRUCTIONS,
  });
  // The callback is never called: installToolDispatcher replaces the tools/call handler.
  for (const tool of TOOLS)
    server.registerTool(tool.name, toolListing(tool), async () => ({ content: [], isError: true }));
  installToolDispatcher(server, TOOLS, runtime);
  return server;
}
