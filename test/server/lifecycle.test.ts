// The server child's life: crash and restart on the same port with the dependencies' state and the run's desired
// faults intact (a fault window that ends while the server is down stays ended), graceful stop, and self-exit
// when the harness disappears.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/core/random.ts';
import type { FaultContext } from '../../src/faults/kind.ts';
import { findFaultKind } from '../../src/faults/registry.ts';
import type { ServerHandle } from '../../src/targets/child-target.ts';
import { alive } from '../helpers/processes.ts';
import { call, connect, key, payment, startServer } from './helpers.ts';

/** Opens a fault window of a registered kind on the server, as the timeline driver does. */
async function openWindow(
  server: ServerHandle,
  seam: string,
  kind: string,
  id: string,
  params: Record<string, unknown> = {},
): Promise<() => Promise<unknown>> {
  const k = findFaultKind(seam, kind);
  if (!k) throw new Error(`${seam} fault kind ${kind} is not registered`);
  const env = { server } as unknown as FaultContext['env'];
  const applied = await k.apply(k.params.parse(params), { env, id, random: new RandomStream(1, id) });
  return () => applied.remove();
}

async function waitUntil(predicate: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return predicate();
}

describe('server child lifecycle', () => {
  it('the ledger and dependency state survive kill() + restart() on the same port', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const k = key('pay');
    await call(client, 'create_payment', payment(k), { traceId: 'op-before' });
    const port = server.port;
    const oldPid = server.pid!;
    server.kill();
    await waitUntil(() => !alive(oldPid));
    expect(await server.ledger()).toHaveLength(1); // served from the parent's copy while the child is dead

    await server.restart();
    expect(server.port).toBe(port);
    expect(server.pid).not.toBe(oldPid);
    const { client: fresh } = await connect(server.url);
    // The payments API remembers the charge: the same key replays it instead of charging again.
    const replay = await call(fresh, 'create_payment', payment(k), { traceId: 'op-after' });
    expect(replay.structuredContent).toMatchObject({ replayed: true });
    expect((await call(fresh, 'get_payment_status', { idempotency_key: k })).structuredContent).toMatchObject({
      status: 'succeeded',
    });
    await call(fresh, 'create_payment', payment(key('pay')), { traceId: 'op-new' });
    const ledger = await server.ledger();
    expect(ledger.map((e) => [e.seq, e.traceId])).toEqual([
      [1, 'op-before'],
      [2, 'op-new'],
    ]);
  });

  it('restart() keeps the active dependency faults', async () => {
    const server = await startServer();
    await server.setDependencyFaults([{ id: 'down', dependency: 'search', kind: 'status', status: 503 }]);
    await server.restart();
    const { client } = await connect(server.url);
    expect((await call(client, 'search_documents', { query: '*' })).isError).toBe(true);
    await server.reset();
    expect((await call(client, 'search_documents', { query: '*' })).isError).toBeFalsy();
  });

  it('stop() leaves no child process and is idempotent', async () => {
    const server = await startServer();
    const pid = server.pid!;
    expect(alive(pid)).toBe(true);
    await server.stop();
    expect(alive(pid)).toBe(false);
    await server.stop();
    await expect(server.call('faultHits')).rejects.toThrow(/not running/);
  });

  it('a behaviour window that ends while the server is down stays ended after the restart', async () => {
    const server = await startServer();
    const closeDowngrade = await openWindow(server, 'server', 'protocol-version', 'f0-downgrade', {
      version: '2024-11-05',
    });
    expect((await connect(server.url)).transport.protocolVersion).toBe('2024-11-05');
    const closeCrash = await openWindow(server, 'server', 'crash', 'f1-crash');
    expect(await waitUntil(() => !server.alive)).toBe(true);
    await closeDowngrade(); // the server is down: only the desired state changes
    await closeCrash(); // restart
    expect(server.alive).toBe(true);
    expect((await connect(server.url)).transport.protocolVersion).toBe('2025-11-25');
    expect((await server.behaviourStats()).initializeOverridden).toBe(0);
  });

  it('a behaviour window still open at the restart is active on the new process', async () => {
    const server = await startServer();
    const closeDowngrade = await openWindow(server, 'server', 'protocol-version', 'f0-downgrade', {
      version: '2024-11-05',
    });
    const closeCrash = await openWindow(server, 'server', 'crash', 'f1-crash');
    expect(await waitUntil(() => !server.alive)).toBe(true);
    await closeCrash();
    expect((await connect(server.url)).transport.protocolVersion).toBe('2024-11-05');
    await closeDowngrade();
    expect((await connect(server.url)).transport.protocolVersion).toBe('2025-11-25');
  });

  it('a dependency window can end while the server is down; the restarted server does not have it', async () => {
    const server = await startServer();
    const { client } = await connect(server.url);
    const closeOutage = await openWindow(server, 'dependency', 'status', 'f0-outage', {
      dependency: 'search',
      status: 503,
    });
    expect((await call(client, 'search_documents', { query: '*' })).isError).toBe(true);
    const closeCrash = await openWindow(server, 'server', 'crash', 'f1-crash');
    expect(await waitUntil(() => !server.alive)).toBe(true);
    await expect(closeOutage()).resolves.toBeUndefined(); // no rejection while no child runs
    await closeCrash();
    const { client: fresh } = await connect(server.url);
    expect((await call(fresh, 'search_documents', { query: '*' })).isError).toBeFalsy();
    expect(server.desired.dependencyFaults.list()).toEqual([]);
  });

  it('the child exits by itself when the IPC channel disconnects', async () => {
    const runTs = fileURLToPath(new URL('../../bin/run-ts.js', import.meta.url));
    const main = fileURLToPath(new URL('../../src/server/child-main.ts', import.meta.url));
    const child = fork(runTs, [main], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    try {
      const ready = new Promise((resolve) => child.on('message', resolve));
      child.send({ type: 'start', options: { seed: 1 } });
      await ready;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
      expect(alive(child.pid!)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
