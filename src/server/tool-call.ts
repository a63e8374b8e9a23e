// One tools/call of the reference tools, whichever SDK front end received it (SDK 1.32's McpServer in
// dispatch.ts, SDK 2.4's in modern/dispatch.ts): validation into VALIDATION.INVALID_ARGUMENTS with fieldErrors,
// an unknown tool as the JSON-RPC error -32602 the spec asks for (with data.availableTools), and every failure a
// structured, redacted ToolError. Every call runs as one tracked handler (runtime.handlers), from before
// validation until it settles, cancelled or not, so the harness can drain the server before reading the ledger.
import { randomUUID } from 'node:crypto';
import { redactDeep } from '../core/redact.ts';
import type { ToolError } from '../core/taxonomy.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../core/wire.ts';
import { Cancelled, DependencyFailure, mapDependencyFailure, NeedsInput, ToolFailure, toolFailure } from './errors.ts';
import type { ServerRuntime } from './runtime.ts';
import type { TaskHandle } from './tasks/task-store.ts';
import type { InputRequiredAnswer } from './tools/input-required-answer.ts';
import type { ToolContext, ToolDef, ToolInput } from './tools/types.ts';
import { fieldErrorsOf } from './validation.ts';

/** What either front end hands over of one tools/call request. */
export interface IncomingToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  /** The request's `_meta` (trace id, attempt, progressToken). */
  meta?: Record<string, unknown>;
  /** Aborted when the client cancels (notifications/cancelled, or a closed response stream). */
  signal: AbortSignal;
  /** A retried multi-round-trip request's answers (the 2026-07-28 front end only). */
  input?: ToolInput;
  /** The task the call runs as (the 2026-07-28 front end's task-only tools). */
  task?: TaskHandle;
  /** Sends notifications/progress on the request's own stream. */
  notifyProgress(params: {
    progressToken: string | number;
    progress: number;
    total: number;
    message: string;
  }): Promise<void>;
}

export type ToolCallOutput =
  | {
      [key: string]: unknown;
      content: { type: 'text'; text: string }[];
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    }
  | InputRequiredAnswer;

/** JSON-RPC -32602 (InvalidParams): a plain Error with code and data, which both SDKs put on the wire as is. */
const INVALID_PARAMS = -32602;

function errorResult(error: ToolError): ToolCallOutput {
  return {
    content: [{ type: 'text', text: `${error.errorCode}: ${error.message} (requestId ${error.requestId})` }],
    structuredContent: error as unknown as Record<string, unknown>,
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

/** The reference tools' tools/call, tracked as one handler per call. */
export function toolCaller(
  tools: readonly ToolDef[],
  runtime: ServerRuntime,
): (call: IncomingToolCall) => Promise<ToolCallOutput> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return (call) => runtime.handlers.track(() => callTool(call));

  async function callTool(call: IncomingToolCall): Promise<ToolCallOutput> {
    const tool = byName.get(call.name);
    if (!tool) {
      // Not McpError: it would prefix "MCP error -32602:" twice on the client.
      throw Object.assign(new Error(`Unknown tool: ${call.name}`), {
        code: INVALID_PARAMS,
        data: { availableTools: [...byName.keys()] },
      });
    }
    const requestId = `req_${randomUUID()}`;
    const parsed = tool.input.safeParse(call.arguments ?? {});
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
    const meta = call.meta;
    const traceId = typeof meta?.[TRACE_META_KEY] === 'string' ? (meta[TRACE_META_KEY] as string) : undefined;
    const attemptMeta = meta?.[ATTEMPT_META_KEY];
    const attempt = Number.isSafeInteger(attemptMeta) ? (attemptMeta as number) : undefined;
    const progressToken = meta?.progressToken as string | number | undefined;
    const { signal } = call;
    const ctx: ToolContext = {
      requestId,
      traceId,
      attempt,
      signal,
      runtime,
      call: (dependency, req) => runtime.deps.call(dependency, req, { traceId, attempt, signal }),
      progress: async (progress, total, message) => {
        if (progressToken === undefined || signal.aborted) return;
        await call.notifyProgress({ progressToken, progress, total, message }).catch(() => undefined);
      },
      ...(call.input && { input: call.input }),
      ...(call.task && { task: call.task }),
    };
    try {
      const out = await tool.run(parsed.data, ctx);
      return { content: [{ type: 'text', text: out.text }], structuredContent: out.structured };
    } catch (error) {
      if (error instanceof NeedsInput) return error.result;
      // After a cancellation the SDK drops whatever we return; say so plainly anyway.
      if (error instanceof Cancelled) {
        return errorResult({ ...toolFailure('INTERNAL.CANCELLED', 'Cancelled by the client.').body, requestId });
      }
      return errorResult(toToolError(error, requestId, runtime.options.leaky));
    }
  }
}
