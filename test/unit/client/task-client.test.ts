// The task client against a scripted server: a failed poll is resumed by the task id (after the advised
// Retry-After) when the policy allows it, else it fails the call; the attempt records what it saw of the task.
import { describe, expect, it } from 'vitest';
import type { AttemptHttp } from '../../../src/client/attempt-http.ts';
import { classifyError } from '../../../src/client/classify.ts';
import { TaskCancelledError } from '../../../src/client/task-cancelled.ts';
import { TaskClient, TaskHttpError } from '../../../src/client/task-client.ts';

const task = (status: string, result?: unknown) => ({
  taskId: 'task_1',
  status,
  pollInterval: 1,
  ...(result !== undefined && { result }),
});
const ok = (result: unknown) => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result }), { status: 200 });

/** A fetch answering each request in turn from `answers`, and the JSON-RPC methods it was asked. */
function scripted(answers: (() => Response)[]) {
  const methods: string[] = [];
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    methods.push((JSON.parse(String(init?.body)) as { method: string }).method);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as typeof globalThis.fetch;
  return { fetch, methods };
}

const done = { content: [{ type: 'text', text: 'charged' }] };
const answers = () => [
  () => ok({ resultType: 'task', task: task('working'), content: [] }),
  () => new Response('{}', { status: 429, headers: { 'retry-after': '0.01' } }),
  () => ok(task('working')),
  () => ok(task('completed', done)),
];

describe('TaskClient', () => {
  it('resumes a failed poll by the task id and returns the completed result; the attempt records it', async () => {
    const { fetch, methods } = scripted(answers());
    const http: AttemptHttp = {};
    const result = await new TaskClient('http://x/mcp', fetch).callTool(
      { name: 'settle_batch' },
      { resumePolls: 2, attempt: http },
    );
    expect(result).toEqual(done);
    expect(methods).toEqual(['tools/call', 'tasks/get', 'tasks/get', 'tasks/get']);
    expect(http.task).toEqual({ status: 'completed', resumedPolls: 1 });
  });

  it('without resumes a failed poll fails the call with the HTTP status and its Retry-After', async () => {
    const { fetch, methods } = scripted(answers());
    const http: AttemptHttp = {};
    const call = new TaskClient('http://x/mcp', fetch).callTool({ name: 'settle_batch' }, { attempt: http });
    await expect(call).rejects.toBeInstanceOf(TaskHttpError);
    await expect(call).rejects.toMatchObject({ code: 429, retryAfterMs: 10 });
    expect(methods).toEqual(['tools/call', 'tasks/get']);
    expect(http.task).toEqual({ status: 'working', resumedPolls: 0 });
  });

  it('a tool that answers a complete result is returned as is (no task, nothing recorded)', async () => {
    const { fetch } = scripted([() => ok(done)]);
    const http: AttemptHttp = {};
    expect(await new TaskClient('http://x/mcp', fetch).callTool({ name: 'x' }, { attempt: http })).toEqual(done);
    expect(http.task).toBeUndefined();
  });

  it("a poll that never answers is cut at the call's budget: the SDK's request timeout, the task still working", async () => {
    const methods: string[] = [];
    // Answers the create, then holds every poll open until the request is aborted.
    const fetch = (async (_url: unknown, init?: RequestInit) => {
      methods.push((JSON.parse(String(init?.body)) as { method: string }).method);
      if (methods.length === 1) return ok({ resultType: 'task', task: task('working'), content: [] });
      return new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    }) as typeof globalThis.fetch;
    const http: AttemptHttp = {};
    const call = new TaskClient('http://x/mcp', fetch).callTool(
      { name: 'settle_batch' },
      { timeout: 300, resumePolls: 3, attempt: http },
    );
    await expect(call).rejects.toMatchObject({ code: -32001 });
    // Cut, not resumed: the budget is spent, so a resume could only be cut again.
    expect(methods).toEqual(['tools/call', 'tasks/get']);
    expect(http.task).toEqual({ status: 'working', resumedPolls: 0 });
  });

  it('a task a poll answered cancelled fails the call for certain; one whose poll was lost stays uncertain', async () => {
    const cancelled = { ...task('cancelled'), statusMessage: 'Cancelled by the client; nothing was charged.' };
    const said = scripted([() => ok({ resultType: 'task', task: task('working'), content: [] }), () => ok(cancelled)]);
    const http: AttemptHttp = {};
    const call = new TaskClient('http://x/mcp', said.fetch).callTool({ name: 'settle_batch' }, { attempt: http });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskCancelledError);
    expect(classifyError(error)).toMatchObject({ errorCode: 'RESOURCE.TASK_CANCELLED', uncertain: false });
    expect(http.task).toEqual({ status: 'cancelled', resumedPolls: 0 });
    // The same cancel, but the poll that would have said so is lost (502): the client knows nothing of the end.
    const lost = scripted([
      () => ok({ resultType: 'task', task: task('working'), content: [] }),
      () => new Response('bad gateway', { status: 502 }),
    ]);
    const unknown = await new TaskClient('http://x/mcp', lost.fetch)
      .callTool({ name: 'settle_batch' }, { attempt: {} })
      .catch((e: unknown) => e);
    expect(classifyError(unknown)).toMatchObject({ errorCode: 'EDGE.HTTP_502', uncertain: true });
  });
});
