// Our tools/call handler on SDK 1.32's McpServer, installed over McpServer's own (tools/list still comes from
// McpServer and advertises the real input schemas). McpServer's built-in validation gives only a text message and
// treats an unknown tool as an isError result; tool-call.ts gives the reference error contract instead.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerRuntime } from './runtime.ts';
import { toolCaller } from './tool-call.ts';
import type { ToolDef } from './tools/types.ts';

export function installToolDispatcher(server: McpServer, tools: readonly ToolDef[], runtime: ServerRuntime): void {
  const call = toolCaller(tools, runtime);
  server.server.setRequestHandler(
    CallToolRequestSchema,
    (request, extra) =>
      call({
        name: request.params.name,
        arguments: request.params.arguments,
        meta: extra._meta as Record<string, unknown> | undefined,
        signal: extra.signal,
        notifyProgress: (params) => extra.sendNotification({ method: 'notifications/progress', params }),
      }) as Promise<CallToolResult>,
  );
}
