// A cancel racing a task's completion (2026-07-28 Tasks extension): another party (a second tab, an operator)
// sends tasks/cancel for the client's task just as its work ends. At the edge, the first poll of a task starts its
// clock; the first poll at or after a seeded delay (drawn per task between afterMinMs and afterMaxMs, around the
// work's length) is preceded on the wire by a tasks/cancel for the same task id. The poll then goes on, and its
// answer is marked with what the server said to the cancel (TASK_CANCEL_HEADER): won, refused, or failed. The
// server's one-outcome rule decides: a cancel before the work claimed the task wins (nothing may be charged), one
// after is refused (the charge stands, once).
import { z } from 'zod';
import { lastJsonRpcMessage } from '../../core/last-message.ts';
import { TASK_CANCEL_HEADER } from '../../core/wire.ts';
import { defineFaultKind } from '../kind.ts';
import { edgeBase, installRule } from './common.ts';

/** Tasks whose clock is kept at once; the oldest is dropped beyond it (a task that finished before its cancel). */
const MAX_TRACKED = 1000;

export const edgeCancelRace = defineFaultKind({
  seam: 'edge',
  kind: 'cancel-race',
  summary: "tasks/cancel is sent for a task just before a poll near the work's end (a cancel racing completion)",
  params: z.strictObject({
    ...edgeBase,
    methods: z
      .array(z.string())
      .default(['tasks/get'])
      .describe('JSON-RPC methods it touches: the polls (default tasks/get)'),
    afterMinMs: z.number().int().min(0).default(150).describe('earliest cancel, ms after the task was first polled'),
    afterMaxMs: z.number().int().min(0).default(350).describe('latest cancel, ms after the task was first polled'),
  }),
  needs: ['http-edge'],
  covers: ['timeout', 'state'],
  onlyIn: { era: 'modern', reason: 'the 2025-11-25 wire of this harness has no tasks (tasks/get, tasks/cancel)' },
  async apply(p, ctx) {
    /** Per task id not yet cancelled: when the cancel is due (epoch ms). */
    const due = new Map<string, number>();
    const cancelled = new Set<string>();
    return installRule(ctx.env.edge, ctx, p, {
      handle: async (exchange, forward, hit) => {
        const poll = JSON.parse(exchange.body ?? '{}') as { id?: unknown; params?: { taskId?: unknown } };
        const taskId = poll.params?.taskId;
        if (typeof taskId !== 'string' || cancelled.has(taskId)) return forward();
        const at = due.get(taskId);
        if (at === undefined) {
          const random = exchange.key === undefined ? ctx.random : ctx.random.keyed(exchange.key);
          due.set(
            taskId,
            Date.now() + random.int('cancel after ms', p.afterMinMs, Math.max(p.afterMinMs, p.afterMaxMs)),
          );
          if (due.size > MAX_TRACKED) due.delete(due.keys().next().value as string);
          return forward();
        }
        if (Date.now() < at) return forward();
        due.delete(taskId);
        cancelled.add(taskId);
        if (cancelled.size > MAX_TRACKED) cancelled.delete(cancelled.values().next().value as string);
        hit();
        const headers = new Headers(exchange.headers);
        headers.set('mcp-method', 'tasks/cancel');
        const cancel = { ...poll, id: `${String(poll.id)}-cancel`, method: 'tasks/cancel' };
        const said = await cancelOutcome(forward({ headers, body: JSON.stringify(cancel) }));
        const answer = await forward();
        const marked = new Headers(answer.headers);
        marked.set(TASK_CANCEL_HEADER, said);
        return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: marked });
      },
    });
  },
});

/** What the server said to the cancel: won (the task is cancelled), refused (-32602 with the task's status), failed. */
async function cancelOutcome(sent: Promise<Response>): Promise<'won' | 'refused' | 'failed'> {
  try {
    const answer = JSON.parse(lastJsonRpcMessage(await (await sent).text())) as {
      result?: { status?: string };
      error?: { code?: number; data?: { status?: string } };
    };
    if (answer.result?.status === 'cancelled') return 'won';
    if (answer.error?.code === -32602 && typeof answer.error.data?.status === 'string') return 'refused';
  } catch {
    // No answer, or not JSON-RPC: the cancel failed on the wire.
  }
  return 'failed';
}
