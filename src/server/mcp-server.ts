// Builds one McpServer (one per session: an McpServer owns exactly one transport) with the reference tools.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { installToolDispatcher } from './dispatch.ts';
import type { ServerRuntime } from './runtime.ts';
import { TOOLS } from './tools/index.ts';

const SERVER_INFO = { name: 'faultline-reference', version: '0.1.0' };

export function createMcpServer(runtime: ServerRuntime): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, logging: {} },
    instructions:
      'Reference system under test for Faultline. Side-effecting tools take an idempotency_key: reuse it on retries. ' +
      'Errors are isError results with a structured ToolError (errorCode, category, retryable, retryAfterMs).',
  });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        // Advertised leniently (fields optional, extra allowed): SDK 1.32 clients validate structuredContent against
        // outputSchema even on isError results, which would reject our structured ToolErrors.
        outputSchema: tool.output.partial().loose(),
        annotations: {
          title: tool.title,
          readOnlyHint: !tool.sideEffecting,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: true,
        },
      },
      // Never called: installToolDispatcher replaces the tools/call handler.
      async () => ({ content: [], isError: true }),
    );
  }
  installToolDispatcher(server, TOOLS, runtime);
  return server;
}
