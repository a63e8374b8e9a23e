// tasks/get and tasks/cancel on the 2026-07-28 wire. SDK 2.4 gives the task methods no runtime ("2025-11-25 wire
// vocabulary with no SDK runtime") and its 2026-07-28 request gate lets tasks/get and tasks/cancel through only
// when they are registered with explicit schemas (the Tasks extension's reused methods), so they are registered so.
// tasks/get carries the result once the task has one: the extension has no tasks/result on this wire.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { TaskStore } from '../tasks/task-store.ts';

const byId = z.looseObject({ taskId: z.string().min(1) });

/** JSON-RPC -32602 for an id the store does not know (never had, or forgot in a restart). */
function unknownTask(taskId: string): Error {
  return Object.assign(new Error(`Unknown task: ${taskId}`), { code: -32602 });
}

export function registerTaskMethods(server: McpServer, store: TaskStore): void {
  server.server.setRequestHandler('tasks/get', { params: byId }, ({ taskId }) => {
    const found = store.get(taskId);
    if (!found) throw unknownTask(taskId);
    return { ...found.task, ...(found.result !== undefined && { result: found.result }) };
  });
  server.server.setRequestHandler('tasks/cancel', { params: byId }, ({ taskId }) => {
    const cancelled = store.cancel(taskId);
    if (!cancelled) throw unknownTask(taskId);
    if (cancelled.refused) {
      throw Object.assign(
        new Error(
          `Task ${taskId} cannot be cancelled: it is ${cancelled.task.status === 'working' ? 'committing' : cancelled.task.status}`,
        ),
        {
          code: -32602,
          data: { status: cancelled.task.status },
        },
      );
    }
    return { ...cancelled.task };
  });
}
