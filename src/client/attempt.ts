// One attempt: a tools/call through the current session, classified and recorded on the run's clock.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { epochMs } from '../core/clock.ts';
import type { AttemptRecord } from '../core/history.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../core/wire.ts';
import { withAnswerLost } from './answer-lost.ts';
import { type AttemptHttp, noteNotification } from './attempt-http.ts';
import type { AttemptOutcome, ToolCallResult } from './attempt-outcome.ts';
import { failureFields } from './classified.ts';
import { classifyError, classifyResult } from './classify.ts';
import { AttemptFailed } from './failure.ts';
import { type PolicyContext, wireId } from './policy.ts';
import { type BudgetOutcome, fitResult } from './result-budget.ts';
import type { TaskCallOptions } from './task-client.ts';
import type { OpRun, Try } from './units/unit.ts';

const VISIBLE_LIMIT = 256 * 1024;

/** Attempts the client itself ended, the SDK sending the server the cancellation. */
const CANCELLED_BY_US = new Set(['LINK.TIMEOUT', 'LINK.ANSWER_LOST']);

/**
 * Everything the model would see of an answer: text content and structuredContent (an isError result's texts
 * and structured error included), or the error's message and, for a JSON-RPC error, its data.
 */
export function visibleText(result: AttemptOutcome['result'], error?: unknown): string {
  const parts: string[] = [];
  if (result) {
    for (const c of (result.content as { type?: string; text?: string }[] | undefined) ?? []) {
      if (c?.type === 'text' && typeof c.text === 'string') parts.push(c.text);
    }
    if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  }
  if (error !== undefined) parts.push(error instanceof Error ? error.message : String(error));
  if (error instanceof McpError && error.data !== undefined) parts.push(JSON.stringify(error.data));
  return parts.join('\n').slice(0, VISIBLE_LIMIT);
}

async function callOnce(
  ctx: PolicyContext,
  opId: string,
  /** What the server sees as the op's trace id (wireId). */
  traceId: string,
  attempt: number,
  tool: string,
  args: Record<string, unknown>,
  /** The SDK's request timeout (it cancels the call with notifications/cancelled); its default when absent. */
  timeoutMs: number | undefined,
  /** The idempotency key the arguments carry, if any (for trace.jsonl). */
  idempotencyKey: string | undefined,
  /** The tool runs as a task: the task client's options (how many failed polls it resumes). */
  task?: TaskCallOptions,
): Promise<AttemptOutcome> {
  const startMs = epochMs();
  const http: AttemptHttp = {};
  let generation = -1;
  let outcome: Omit<AttemptOutcome, 'record'>;
  let budget: BudgetOutcome<ToolCallResult> | undefined;
  try {
    const session = await ctx.session.get();
    generation = session.generation;
    const { client, attempts } = session.connection;
    const call = async (pageArgs: Record<string, unknown>): Promise<ToolCallResult> => {
      const params = {
        name: tool,
        arguments: pageArgs,
        _meta: { [TRACE_META_KEY]: traceId, [ATTEMPT_META_KEY]: attempt },
      };
      if (task) {
        if (!client.callTask) throw new Error(`${tool} runs as a task: it needs the 2026-07-28 wire over HTTP`);
        return client.callTask(params, { ...requestOptions(timeoutMs), ...task, attempt: http });
      }
      // Asking for progress, as hosts do: what the tool reports on the way is model-visible too.
      return (await withAnswerLost(http, attempts, (lost) =>
        client.callTool(params, undefined, {
          ...requestOptions(timeoutMs),
          ...lost,
          onprogress: (p) => noteNotification(JSON.stringify(p), http),
        }),
      )) as ToolCallResult;
    };
    // Every request the attempt sends carries its trace id and number: that is how the fetch finds it.
    budget = await attempts.during(traceId, attempt, http, async () =>
      fitResult(await call(args), ctx.client.resultBudgetBytes, args.page_size, (page_size) =>
        call({ ...args, page_size }),
      ),
    );
    const result = budget.result;
    outcome = { classified: classifyResult(result), result, generation, visible: visibleText(result) };
  } catch (error) {
    outcome = { classified: classifyError(error, http), generation, visible: visibleText(undefined, error) };
  }
  const c = outcome.classified;
  // Not retried, but the next op should not inherit a session whose version the server refuses.
  if (c.renegotiate && generation >= 0) void ctx.session.renew(generation);
  const record: AttemptRecord = {
    opId,
    attempt,
    startMs,
    endMs: epochMs(),
    ok: c.ok,
    tool,
    args,
    ...(idempotencyKey && { idempotencyKey }),
    ...(http.status !== undefined && { httpStatus: http.status }),
    ...(requestIdOf(outcome.result) && { requestId: requestIdOf(outcome.result) }),
    ...(budget && { resultBytes: budget.bytes }),
    ...(budget?.action && { budget: budget.action }),
    ...(http.resumptions && { resumptions: http.resumptions }),
    ...(http.headerTampered && { headerTampered: true }),
    ...(http.inputRounds && { inputRounds: http.inputRounds }),
    ...(http.task && { task: http.task }),
    visible: outcome.visible,
    ...(http.notifications && { notifications: http.notifications }),
    ...failureFields(c),
  };
  ctx.recordAttempt(record);
  return { ...outcome, record };
}

/** The server's request id, when its structured error names one (the reference server's ToolError does). */
function requestIdOf(result: ToolCallResult | undefined): string | undefined {
  const id = (result?.structuredContent as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' ? id : undefined;
}

/** The SDK's request options for a time budget (an unbounded budget keeps the SDK's default timeout). */
export function requestOptions(timeoutMs: number | undefined): { timeout?: number } {
  return timeoutMs === undefined || !Number.isFinite(timeoutMs) ? {} : { timeout: Math.max(1, timeoutMs) };
}

export interface AttemptOptions {
  /** The idempotency key of the call's attempt n; by default the call's one key (`OpRun.key`). */
  keyFor?: (attempt: number) => string;
  /** A failed attempt that our own timeout cancelled took no effect when the tool honours cancellation. */
  trustsCancel?: boolean;
  /** Failed tasks/get polls resumed by the task's id (a task-only tool); none by default, as SDK-less code does. */
  resumePolls?: number;
}

/** The innermost step of a try: one attempt with the try's time budget, reported to the tally. */
export function attemptStep(op: OpRun, options: AttemptOptions = {}): Try {
  const { call } = op;
  return async (context) => {
    const n = op.tally.attemptsMade + 1;
    const key = options.keyFor ? options.keyFor(n) : op.key;
    const keyed = key !== undefined && call.idempotencyArg !== undefined;
    const args = keyed ? { ...call.args, [call.idempotencyArg as string]: key } : call.args;
    const attempt = op.attemptsBefore + n;
    const outcome = await callOnce(
      op.ctx,
      call.opId,
      wireId(call),
      attempt,
      call.tool,
      args,
      context.timeoutMs,
      keyed ? key : undefined,
      call.runsAsTask ? { resumePolls: options.resumePolls ?? 0 } : undefined,
    );
    const c = outcome.classified;
    // We cancelled the call (at our timeout, or when its answer's stream broke: answer-lost.ts), and the SDK sent
    // the cancellation: a tool that honours it took no effect.
    const cancelled = !outcome.result && CANCELLED_BY_US.has(c.errorCode ?? '') && call.honoursCancel === true;
    op.tally.record({ type: 'attempt', outcome, tookNoEffect: options.trustsCancel === true && cancelled });
    if (!c.ok) throw new AttemptFailed(outcome);
    outcome.record.next = 'done';
    return c;
  };
}
