// The edge's cancel-race on the wire: the first poll of a task starts its clock; the first poll at or after the
// drawn delay goes out after a tasks/cancel for the same task (once per task), and its answer says what the
// server said to the cancel.
import { describe, expect, it } from 'vitest';
import { TASK_CANCEL_HEADER } from '../../../../src/core/wire.ts';
import { edgeCancelRace } from '../../../../src/faults/edge/cancel-race.ts';
import { faultContext, rpc } from './helpers.ts';

const URL_ = 'http://127.0.0.1:1/mcp';

/** A server that records each method it got and answers a cancel as `cancel` says. */
function server(cancel: 'won' | 'refused') {
  const got: string[] = [];
  const inner: typeof fetch = async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as { method: string; id: unknown };
    got.push(`${body.method} ${new Headers(init?.headers).get('mcp-method')}`);
    if (body.method !== 'tasks/cancel')
      return Response.json({ jsonrpc: '2.0', id: body.id, result: { status: 'working' } });
    return Response.json(
      cancel === 'won'
        ? { jsonrpc: '2.0', id: body.id, result: { status: 'cancelled' } }
        : { jsonrpc: '2.0', id: body.id, error: { code: -32602, message: 'no', data: { status: 'working' } } },
    );
  };
  return { got, inner };
}

async function raced(cancel: 'won' | 'refused') {
  const ctx = faultContext();
  const applied = await edgeCancelRace.apply(edgeCancelRace.params.parse({ afterMinMs: 0, afterMaxMs: 0 }), ctx);
  const s = server(cancel);
  const f = ctx.edge.wrap(s.inner);
  const poll = () => f(URL_, rpc('tasks/get', { taskId: 't1' }, { 'mcp-method': 'tasks/get' }));
  const answers = [await poll(), await poll(), await poll()];
  return { got: s.got, marks: answers.map((a) => a.headers.get(TASK_CANCEL_HEADER)), hits: await applied.hits() };
}

describe('edge cancel-race', () => {
  it('cancels once, before the poll that is due, and marks that poll with the cancel won', async () => {
    const r = await raced('won');
    expect(r.got).toEqual([
      'tasks/get tasks/get',
      'tasks/cancel tasks/cancel',
      'tasks/get tasks/get',
      'tasks/get tasks/get',
    ]);
    expect(r.marks).toEqual([null, 'won', null]);
    expect(r.hits).toBe(1);
  });

  it('a -32602 with the task status is a refused cancel', async () => {
    expect((await raced('refused')).marks).toEqual([null, 'refused', null]);
  });

  it('leaves other methods and polls without a task id alone', async () => {
    const ctx = faultContext();
    const applied = await edgeCancelRace.apply(
      edgeCancelRace.params.parse({ methods: [], afterMinMs: 0, afterMaxMs: 0 }),
      ctx,
    );
    const s = server('won');
    const f = ctx.edge.wrap(s.inner);
    await f(URL_, rpc('tools/call', { name: 'x' }));
    await f(URL_, rpc('tools/call', { name: 'x' }));
    expect(s.got).toEqual(['tools/call null', 'tools/call null']);
    expect(await applied.hits()).toBe(0);
  });
});
