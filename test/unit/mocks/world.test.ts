// The dependency world in-process: the payments API's idempotency semantics, the ledger, state snapshots, and
// fault spec validation.
import { beforeEach, describe, expect, it } from 'vitest';
import { DEPENDENCY_URLS } from '../../../mocks/apis/types.ts';
import { parseDependencyFaults } from '../../../mocks/faults/registry.ts';
import { DependencyWorld } from '../../../mocks/world.ts';
import { IDEMPOTENCY_HEADER, TRACE_HEADER } from '../../../src/core/wire.ts';

let world: DependencyWorld;
beforeEach(() => {
  world = new DependencyWorld(5);
});

function charge(idempotencyKey: string, amount = 100, trace = 'op-1') {
  return world.fetch(`${DEPENDENCY_URLS.payments}/v1/charges`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: idempotencyKey, [TRACE_HEADER]: trace },
    body: JSON.stringify({ customer_id: 'cus_1', amount_cents: amount, currency: 'USD' }),
  });
}

describe('a world streamed out (the server child: the harness keeps the record)', () => {
  it('pushes every effect and decision and keeps none; dedup, numbering and the last effect time still hold', async () => {
    const pushed: number[] = [];
    world.ledger.onEffect((e) => pushed.push(e.seq));
    world.streamOut();
    expect((await charge('k-1')).status).toBe(201);
    expect((await charge('k-1')).status).toBe(200);
    expect((await charge('k-2')).status).toBe(201);
    // The dependency's own state still deduplicates; the ledger numbers on and remembers only when it last recorded.
    expect(pushed).toEqual([1, 2]);
    expect(world.ledger.lastAtMs).toBeGreaterThan(0);
    expect(() => world.ledger.list()).toThrow(/streams its entries out/);
  });

  it('the control: a world not streamed out keeps its ledger', async () => {
    await charge('k-1');
    expect(world.ledger.list()).toHaveLength(1);
    expect(world.ledger.lastAtMs).toBe(world.ledger.list()[0].atMs);
  });
});

describe('payments API', () => {
  it('same key and params replay the charge without a second effect; other params are a 422', async () => {
    const first = await charge('k-1');
    expect(first.status).toBe(201);
    const replay = await charge('k-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await replay.json()).id).toBe((await first.json()).id);
    expect((await charge('k-1', 999)).status).toBe(422);
    expect(world.ledger.list()).toHaveLength(1);
    expect((await charge('k-2')).status).toBe(201);
    expect(world.ledger.list().map((e) => [e.seq, e.idempotencyKey, e.traceId])).toEqual([
      [1, 'k-1', 'op-1'],
      [2, 'k-2', 'op-1'],
    ]);
    const lookup = await world.fetch(`${DEPENDENCY_URLS.payments}/v1/charges?idempotency_key=k-2`);
    expect(lookup.status).toBe(200);
    expect((await world.fetch(`${DEPENDENCY_URLS.payments}/v1/charges?idempotency_key=k-3`)).status).toBe(404);
  });

  it('the same arguments give the same argsKey, different ones a different key', async () => {
    await charge('a', 100);
    await charge('b', 100);
    await charge('c', 200);
    const [a, b, c] = world.ledger.list();
    expect(a.argsKey).toBe(b.argsKey);
    expect(a.argsKey).not.toBe(c.argsKey);
  });

  it('a snapshot restores charges and ledger into a new world', async () => {
    await charge('k-1');
    const snapshot = world.snapshot();
    world = new DependencyWorld(5);
    world.restore(snapshot);
    expect((await charge('k-1')).headers.get('idempotent-replayed')).toBe('true');
    await charge('k-9');
    expect(world.ledger.list().map((e) => e.seq)).toEqual([1, 2]);
  });

  it('status faults act before the dependency, commit-then-fail after it', async () => {
    world.faults.set([{ id: 's', dependency: 'payments', kind: 'status', status: 503 }]);
    expect((await charge('k-1')).status).toBe(503);
    expect(world.ledger.list()).toHaveLength(0);
    world.faults.set([{ id: 'c', dependency: '*', kind: 'commit-then-fail', status: 502 }]);
    expect((await charge('k-1')).status).toBe(502);
    expect(world.ledger.list()).toHaveLength(1);
  });

  it('the notifications API does not deduplicate', async () => {
    const send = () =>
      world.fetch(`${DEPENDENCY_URLS.notifications}/v1/messages`, {
        method: 'POST',
        body: JSON.stringify({ recipient: 'a@b.co', channel: 'email', message: 'hi', client_reference: 'r-1' }),
      });
    await send();
    await send();
    expect(world.ledger.list()).toHaveLength(2);
  });

  it('a URL no API serves fails instead of leaving the process', async () => {
    await expect(world.fetch('https://example.com/')).rejects.toThrow(TypeError);
  });
});

describe('fault specs', () => {
  it('fills defaults and rejects bad specs with readable messages', () => {
    const [flap] = parseDependencyFaults([{ id: 'f', dependency: 'search', kind: 'flap', failTimes: 2 }]);
    expect(flap).toMatchObject({ kind: 'flap', status: 503 });
    expect(() => parseDependencyFaults([{ id: 'l', dependency: 'payments', kind: 'latency' }])).toThrow(
      /latency `ms` must be a whole number/,
    );
    expect(() => parseDependencyFaults([{ id: 's', dependency: 'payment', kind: 'status', status: 503 }])).toThrow(
      /`dependency` must be one of: payments/,
    );
    expect(() => parseDependencyFaults([{ id: 's', dependency: '*', kind: 'status', status: 200 }])).toThrow(
      /HTTP error status/,
    );
    expect(() =>
      parseDependencyFaults([
        { id: 'x', dependency: '*', kind: 'hang' },
        { id: 'x', dependency: '*', kind: 'hang' },
      ]),
    ).toThrow(/ids must be unique/);
  });
});
