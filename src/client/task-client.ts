// Faultline's own task client for the 2026-07-28 wire. SDK 2.4 has no task runtime: its client rejects a
// tools/call result whose resultType is `task` (UnsupportedResultType) and offers no tasks/get. So a task-only tool
// is called here, over the connection's own fetch (the edge's faults and the attempt's status recording apply):
// tools/call answers a task, tasks/get is polled at the task's pollInterval until it is terminal (its result then
// comes with it). A failed poll is resumed by the task's id when the policy allows (`resumePolls`: Retry-After
// honoured), else it fails the attempt, and a caller that retries then creates the task again. A poll the server
// answers "unknown task" (it restarted and forgot) is resumed by creating the task again with the same arguments.
// A task that ended cancelled fails the call for certain (task-cancelled.ts); one that ended failed, uncertainly.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { TaskAttempt } from '../core/history.ts';
import { lastJsonRpcMessage } from '../core/last-message.ts';
import { MODERN_VERSION } from '../core/pairing.ts';
import { parseRetryAfter } from '../core/retry-after.ts';
import { sleep } from '../core/sleep.ts';
import { ENVELOPE_VERSION_KEY, TASK_CANCEL_HEADER } from '../core/wire.ts';
import type { AttemptHttp } from './attempt-http.ts';
import type { ToolCallResult } from './attempt-outcome.ts';
import { ELICITATION_CAPABILITY } from './confirming-user.ts';
import { TaskCancelledError } from './task-cancelled.ts';

export interface TaskCallOptions {
  /** The whole call's budget (create, polls and pauses); the SDK's request timeout error when it runs out. */
  timeout?: number;
  /** Failed polls resumed (the same task id polled again) before the call fails; 0: none, as the naive client. */
  resumePolls?: number;
  /** The attempt the call is: what it records of its task. */
  attempt?: AttemptHttp;
}

export interface TaskView {
  taskId: string;
  status: string;
  pollInterval?: number;
  statusMessage?: string;
  result?: ToolCallResult;
}

/** The pause after a failed poll without Retry-After. */
const RESUME_PAUSE_MS = 100;
/** The SDK's default request timeout, for a call without a budget. */
const DEFAULT_TIMEOUT_MS = 60_000;

export class TaskClient {
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly fetch: typeof globalThis.fetch,
  ) {}

  /** Calls a task-only tool: creates the task, polls it to its end, and answers its result as a tools/call would. */
  async callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options: TaskCallOptions = {},
  ): Promise<ToolCallResult> {
    const deadline = Date.now() + (options.timeout ?? DEFAULT_TIMEOUT_MS);
    const created = await this.create(params, deadline);
    if (!('taskId' in created)) return created;
    let task = created;
    let resumes = options.resumePolls ?? 0;
    // What the attempt records of its task (the task metrics): updated as the polls go.
    const seen: TaskAttempt = { status: task.status, resumedPolls: 0 };
    if (options.attempt) options.attempt.task = seen;
    while (task.status === 'working') {
      if (!(await this.pause(task.pollInterval ?? RESUME_PAUSE_MS, deadline)))
        throw timedOut(`polling task ${task.taskId}`);
      try {
        // The call's trace id and attempt ride along: the edge's op windows and seeded draws key on them.
        const poll = { taskId: task.taskId, _meta: params._meta };
        task = (await this.request('tasks/get', poll, task.taskId, deadline, seen)) as TaskView;
        seen.status = task.status;
      } catch (error) {
        if (resumes-- <= 0 || isTimeout(error)) throw error;
        if (isUnknownTask(error)) {
          // The server forgot the task (it restarted: its tasks live in its memory). Created again with the same
          // arguments, so the same idempotency key: a charge the forgotten task made is answered, not repeated.
          seen.forgotten = (seen.forgotten ?? 0) + 1;
          const again = await this.create(params, deadline, seen);
          if (!('taskId' in again)) return again;
          task = again;
          seen.status = task.status;
          continue;
        }
        seen.resumedPolls++;
        // Resumed by id: the same task polled again after the advised pause (the poll's pollInterval otherwise).
        const advised = error instanceof TaskHttpError ? error.retryAfterMs : undefined;
        if (!(await this.pause(advised ?? RESUME_PAUSE_MS, deadline))) throw timedOut(`polling task ${task.taskId}`);
      }
    }
    if (task.result) return task.result;
    // The server's own word that the task stopped before its effect: a certain failure (classify-rules/task.ts).
    if (task.status === 'cancelled') throw new TaskCancelledError(task.taskId, task.statusMessage);
    throw new McpError(-32603, `Task ${task.taskId} ended ${task.status}: ${task.statusMessage ?? 'no result'}`);
  }

  /** Sends the tools/call: the task it answered, or the result of a tool that did not run as a task. */
  async create(
    params: { name: string; arguments?: Record<string, unknown> },
    deadline = Date.now() + DEFAULT_TIMEOUT_MS,
    seen?: TaskAttempt,
  ): Promise<TaskView | ToolCallResult> {
    const created = (await this.request('tools/call', params, params.name, deadline, seen)) as {
      resultType?: string;
      task?: TaskView;
    };
    return created.resultType === 'task' && created.task ? created.task : (created as ToolCallResult);
  }

  /** Cancels a task: its status after the cancel (a refused cancel is the server's JSON-RPC error). */
  async cancel(taskId: string): Promise<TaskView> {
    return (await this.request('tasks/cancel', { taskId }, taskId, Date.now() + DEFAULT_TIMEOUT_MS)) as TaskView;
  }

  private async pause(ms: number, deadline: number): Promise<boolean> {
    if (Date.now() + ms > deadline) return false;
    return sleep(ms);
  }

  /**
   * One JSON-RPC request in the 2026-07-28 envelope; its result, or the HTTP or JSON-RPC error thrown. A request
   * still unanswered (or still streaming) at the deadline is cut there: the SDK's request timeout error.
   */
  private async request(
    method: string,
    params: Record<string, unknown>,
    name: string,
    deadline: number,
    /** What the attempt records of its task, once it has one. */
    seen?: TaskAttempt,
  ) {
    try {
      return await this.send(method, params, name, AbortSignal.timeout(Math.max(1, deadline - Date.now())), seen);
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError') throw timedOut(`${method} ${name}`);
      throw error;
    }
  }

  private async send(
    method: string,
    params: Record<string, unknown>,
    name: string,
    signal: AbortSignal,
    task: TaskAttempt | undefined,
  ) {
    const body = {
      jsonrpc: '2.0',
      id: this.nextId++,
      method,
      params: { ...params, _meta: { ...(params._meta as object | undefined), ...ENVELOPE } },
    };
    const response = await this.fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN_VERSION,
        'mcp-method': method,
        ...(name !== undefined && { 'mcp-name': name }),
      },
      body: JSON.stringify(body),
      signal,
    });
    const text = await response.text();
    // A cancel the edge sent for this task just before the poll: which way the race went.
    const cancel = response.headers.get(TASK_CANCEL_HEADER);
    if (cancel && task) task.cancel = cancel as TaskAttempt['cancel'];
    if (!response.ok) {
      throw new TaskHttpError(
        response.status,
        `${method}: HTTP ${response.status} ${text.slice(0, 200)}`,
        response.headers.get('retry-after'),
      );
    }
    const answer = JSON.parse(lastJsonRpcMessage(text)) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (answer.error) throw new McpError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result;
  }
}

/** An HTTP refusal, as SDK 1.32's (so the classification is the same), with the Retry-After it advised. */
export class TaskHttpError extends StreamableHTTPError {
  readonly retryAfterMs: number | undefined;
  constructor(status: number, message: string, retryAfter: string | null) {
    super(status, message);
    this.retryAfterMs = parseRetryAfter(retryAfter);
  }
}

const ENVELOPE = {
  [ENVELOPE_VERSION_KEY]: MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'faultline', version: '0.1.0' },
  'io.modelcontextprotocol/clientCapabilities': ELICITATION_CAPABILITY,
};

/** The SDK's request timeout error (-32001), as the classification knows it: the task may still complete. */
const TIMED_OUT = -32001;
function timedOut(what: string): McpError {
  return new McpError(TIMED_OUT, `Request timed out: ${what}`);
}

const isTimeout = (error: unknown) => error instanceof McpError && error.code === TIMED_OUT;

/** tasks/get's answer for an id the server does not know: -32602 (task-methods.ts), here after a restart. */
const isUnknownTask = (error: unknown) =>
  error instanceof McpError && error.code === -32602 && /unknown task/i.test(error.message);
