// One attempt: a tools/call through the current session, classified and recorded on the run's clock.
import { epochMs } from '../core/clock.ts';
import type { AttemptRecord } from '../core/history.ts';
import { ATTEMPT_META_KEY, TRACE_META_KEY } from '../core/wire.ts';
import { type AttemptHttp, runInAttempt } from './attempt-context.ts';
import { type Classified, classifyError, classifyResult } from './classify.ts';
import type { PolicyContext } from './policy.ts';
import { type BudgetOutcome, fitResult } from './result-budget.ts';

export type ToolCallResult = { content?: unknown; structuredContent?: unknown; isError?: boolean };

export interface AttemptOutcome {
  classified: Classified;
  result?: ToolCallResult;
  generation: number;
  visible: string;
  /** The recorded attempt; the policy fills in `next` once it decides. */
  record: AttemptRecord;
}

const VISIBLE_LIMIT = 256 * 1024;

/** Everything the model would see of an answer: text content, structured content, error messages. */
export function visibleText(result: AttemptOutcome['result'], error?: unknown): string {
  const parts: string[] = [];
  if (result) {
    for (const c of (result.content as { type?: string; text?: string }[] | undefined) ?? []) {
      if (c?.type === 'text' && typeof c.text === 'string') parts.push(c.text);
    }
    if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  }
  if (error !== undefined) parts.push(error instanceof Error ? error.message : String(error));
  return parts.join('\n').slice(0, VISIBLE_LIMIT);
}

export async function callOnce(
  ctx: PolicyContext,
  opId: string,
  attempt: number,
  tool: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  const startMs = epochMs();
  const http: AttemptHttp = {};
  let generation = -1;
  let outcome: Omit<AttemptOutcome, 'record'>;
  let budget: BudgetOutcome<ToolCallResult> | undefined;
  try {
    const session = await ctx.session.get();
    generation = session.generation;
    const call = (pageArgs: Record<string, unknown>) =>
      runInAttempt(http, () =>
        session.connection.client.callTool(
          { name: tool, arguments: pageArgs, _meta: { [TRACE_META_KEY]: opId, [ATTEMPT_META_KEY]: attempt } },
          undefined,
          { timeout: Math.max(1, timeoutMs) },
        ),
      ) as Promise<ToolCallResult>;
    budget = await fitResult(await call(args), ctx.session.resultBudgetBytes, args.page_size, (page_size) =>
      call({ ...args, page_size }),
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
    ...(budget && { resultBytes: budget.bytes }),
    ...(budget?.action && { budget: budget.action }),
    ...(http.resumptions && { resumptions: http.resumptions }),
    ...(c.ok
      ? {}
      : {
          category: c.category,
          errorCode: c.errorCode,
          retryable: c.retryable,
          retryAfterMs: c.retryAfterMs,
          uncertain: c.uncertain,
          message: c.message?.slice(0, 300),
        }),
  };
  ctx.recordAttempt(record);
  return { ...outcome, record };
}
