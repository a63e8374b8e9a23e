// Builds one SDK 2.4 McpServer with the reference tools: the same listing and the same tools/call (tool-call.ts)
// as the SDK 1.32 front end, so both eras see one tool implementation. createMcpHandler makes one per request.
import {
  acceptedContent,
  type CallToolResult,
  type InputRequiredResult,
  McpServer,
} from '@modelcontextprotocol/server';
import type { ServerRuntime } from '../runtime.ts';
import { tasksOf } from '../tasks/task-store.ts';
import { type IncomingToolCall, toolCaller } from '../tool-call.ts';
import { SERVER_INFO, SERVER_INSTRUCTIONS, toolListing } from '../tool-listing.ts';
import { MODERN_TOOLS as TOOLS } from '../tools/index.ts';
import { registerPaymentsFeed } from './payments-feed.ts';
import { registerTaskMethods } from './task-methods.ts';

export function createModernMcpServer(runtime: ServerRuntime): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: { subscribe: true } },
    instructions: SERVER_INSTRUCTIONS,
  });
  // The callback is never called: the tools/call handler below replaces McpServer's.
  for (const tool of TOOLS)
    server.registerTool(tool.name, toolListing(tool), async () => ({ content: [], isError: true }));
  registerPaymentsFeed(server, runtime);
  const call = toolCaller(TOOLS, runtime) as (c: IncomingToolCall) => Promise<CallToolResult | InputRequiredResult>;
  const tasks = tasksOf(runtime);
  registerTaskMethods(server, tasks);
  const runsAsTask = new Set(TOOLS.filter((t) => t.runsAsTask).map((t) => t.name));
  server.server.setRequestHandler('tools/call', (request, ctx) => {
    if (runsAsTask.has(request.params.name)) {
      // The task outlives this request: its own signal, no input rounds, no progress on a stream that has ended.
      const task = tasks.start(async (handle) => {
        const result = await call({
          name: request.params.name,
          arguments: request.params.arguments,
          meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
          signal: handle.signal,
          task: handle,
          notifyProgress: async () => {},
        });
        return { result, failed: (result as CallToolResult).isError === true };
      });
      // A resultType the SDK 2.4 server passes through on tools/call (its client rejects it: UnsupportedResultType).
      return { resultType: 'task', task, content: [] } as unknown as CallToolResult;
    }
    // An InputRequiredAnswer is the wire's InputRequiredResult (tools/input-required-answer.ts keeps the SDK out of the tools).
    return call({
      name: request.params.name,
      arguments: request.params.arguments,
      meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
      signal: ctx.mcpReq.signal,
      input: {
        accepted: (key) => acceptedContent(ctx.mcpReq.inputResponses, key),
        state: ctx.mcpReq.requestState<string>(),
      },
      notifyProgress: (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }),
    });
  });
  return server;
}
