// Our tools/call handler, installed over McpServer's (tools/list still comes from McpServer and advertises the
// real input schemas). It exists because McpServer's built-in validation gives only a text message and treats an
// unknown tool as an isError result; here validation yields VALIDATION.INVALID_ARGUMENTS with fieldErrors, an
// unknown tool is the JSON-RPC error -32602 the spec asks for (with data.availableTools), and every failure is a
// structured, redacted ToolError. Every call runs as one tracked handler (runtime.handlers), from before
// validation until it settles, cancelled or not, so the harness can drain the server before reading the ledger.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { redactDeep } from '../core/redact.ts';
import type { ToolError } from '../core/taxonomy.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../core/wire.ts';
import { Cancelled, DependencyFailure, mapDependencyFailure, ToolFailure, toolFailure } from './errors.ts';
import type { ServerRuntime } from './runtime.ts';
import type { ToolContext, ToolDef } from './tools/types.ts';
import { fieldErrorsOf } from './validation.ts';

function errorResult(error: ToolError): CallToolResult {
  return {
    content: [{ type: 'text', text: `${error.errorCode}: ${error.message} (requestId ${error.requestId})` }],
    structuredContent: error,
    isError: true,
  };
}

function toToolError(error: unknown, requestId: string, leaky: boolean): ToolError {
  let failure: ToolFailure;
  if (error instanceof ToolFailure) failure = error;
  else if (error instanceof DependencyFailure) failure = mapDependencyFailure(error, leaky);
  else {
    // Never the message or stack of an unexpected error (paths, internals); the requestId finds it in the logs.
    const leak = leaky && error instanceof Error ? ` ${error.stack}` : '';
    failure = toolFailure('INTERNAL.UNEXPECTED', `Internal error in the tool.${leak}`);
  }
  const body: ToolError = { ...failure.body, requestId };
  return leaky ? body : redactDeep(body);
}

export function installToolDispatcher(server: McpServer, tools: readonly ToolDef[], runtime: ServerRuntime): void {
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    runtime.handlers.track(() => callTool(request, extra)),
  );

  async function callTool(
    request: CallToolRequest,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<CallToolResult> {
    const tool = byName.get(request.params.name);
    if (!tool) {
      // A plain Error with code and data: McpError would prefix "MCP error -32602:" twice on the client.
      throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), {
        code: ErrorCode.InvalidParams,
        data: { availableTools: [...byName.keys()] },
      });
    }
    const requestId = `req_${randomUUID()}`;
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error);
      const summary = fieldErrors.map((f) => `${f.path}: ${f.message}`).join('; ');
      return errorResult(
        toToolError(
          toolFailure('VALIDATION.INVALID_ARGUMENTS', `Invalid arguments for ${tool.name}: ${summary}`, {
            fieldErrors,
          }),
          requestId,
          runtime.options.leaky,
        ),
      );
    }
    const meta = extra._meta as Record<string, unknown> | undefined;
    const traceId = typeof meta?.[TRACE_META_KEY] === 'string' ? (meta[TRACE_META_KEY] as string) : undefined;
    const attemptMeta = meta?.[ATTEMPT_META_KEY];
    const attempt = Number.isSafeInteger(attemptMeta) ? (attemptMeta as number) : undefined;
    const progressToken = meta?.progressToken as string | number | undefined;
    const ctx: ToolContext = {
      requestId,
      traceId,
      attempt,
      signal: extra.signal,
      runtime,
      call: (dependency, req) => runtime.deps.call(dependency, req, { traceId, attempt, signal: extra.signal }),
      progress: async (progress, total, message) => {
        if (progressToken === undefined || extra.signal.aborted) return;
        await extra
          .sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
          .catch(() => undefined);
      },
    };
    try {
      const out = await tool.run(parsed.data, ctx);
      return { content: [{ type: 'text', text: out.text }], structuredContent: out.structured };
    } catch (error) {
      // After a cancellation the SDK drops whatever we return; say so plainly anyway.
      if (error instanceof Cancelled) {
        return errorResult({ ...toolFailure('INTERNAL.CANCELLED', 'Cancelled by the client.').body, requestId });
      }
      return errorResult(toToolError(error, requestId, runtime.options.leaky));
    }
  }
}
