// settle_batch on the 2026-07-28 wire runs as a task: tools/call answers a task, tasks/get polls it (its result
// comes with the completed status), tasks/cancel stops it before it charges. SDK 2.4's own client cannot take the
// task (UnsupportedResultType): Faultline's task client does.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { TaskClient, type TaskView } from '../../src/client/task-client.ts';
import { MODERN_VERSION } from '../../src/core/pairing.ts';
import { key, payment, startServer } from './helpers.ts';

describe('settle_batch (tasks)', () => {
  it('the task client creates the task, polls it to completed and gets its result; one charge', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    const result = await new TaskClient(server.url, fetch).callTool({
      name: 'settle_batch',
      arguments: payment(key('task')),
    });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { status?: string }).status).toBe('succeeded');
    expect(await server.ledger()).toHaveLength(1);
  });

  it('a cancel while the task works wins: cancelled, nothing charged; a second cancel is refused', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    const tasks = new TaskClient(server.url, fetch);
    const task = (await tasks.create({ name: 'settle_batch', arguments: payment(key('task')) })) as TaskView;
    expect(task.status).toBe('working');
    expect((await tasks.cancel(task.taskId)).status).toBe('cancelled');
    await expect(tasks.cancel(task.taskId)).rejects.toBeInstanceOf(McpError);
    // Well past the work's end: a charge it made after the cancel would be in the ledger by now.
    await new Promise((r) => setTimeout(r, 800));
    expect(await server.ledger()).toHaveLength(0);
  });

  it('an unknown task id is a JSON-RPC error (what a client sees after a restart forgot the task)', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    await expect(new TaskClient(server.url, fetch).cancel('task_unknown')).rejects.toMatchObject({ code: -32602 });
  });

  it('SDK 2.4 client: rejects the task answer of tools/call (UnsupportedResultType), though the task runs', async () => {
    const server = await startServer({ frontEnd: 'sdk2' });
    const sdk = new Client({ name: 't', version: '0' }, { versionNegotiation: { mode: { pin: MODERN_VERSION } } });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      await expect(sdk.callTool({ name: 'settle_batch', arguments: payment(key('sdk')) })).rejects.toMatchObject({
        code: 'UNSUPPORTED_RESULT_TYPE',
      });
    } finally {
      await sdk.close();
    }
    await new Promise((r) => setTimeout(r, 800));
    expect(await server.ledger()).toHaveLength(1);
  });
});
