// The dependency APIs as route tables: one resolver per route (plus one per API for what it does not serve),
// every one behind the fault engine; reports share the payments API's idempotent create. Requests go through the
// world's own fetch, as the reference server's do.
import { beforeEach, describe, expect, it } from 'vitest';
import { APIS, DependencyWorld } from '../../../mocks/world.ts';
import { DEPENDENCY_PATHS, DEPENDENCY_URLS } from '../../../src/core/dependency-contract.ts';
import { IDEMPOTENCY_HEADER } from '../../../src/core/wire.ts';

let world: DependencyWorld;
beforeEach(() => {
  world = new DependencyWorld(5);
});

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('route tables', () => {
  it('every API declares its routes', () => {
    expect(Object.fromEntries(APIS.map((api) => [api.name, api.routes.map((r) => `${r.method} ${r.path}`)]))).toEqual({
      payments: ['POST /v1/charges', 'GET /v1/charges'],
      notifications: ['POST /v1/messages', 'GET /v1/messages'],
      search: ['GET /v1/search'],
      reports: ['POST /v1/reports', 'GET /v1/reports'],
      auth: ['POST /v1/token'],
    });
  });

  it('an unknown path or a method a path does not serve is a 404 "Unknown endpoint"', async () => {
    for (const [url, method] of [
      [`${DEPENDENCY_URLS.payments}/v1/refunds`, 'POST'],
      [`${DEPENDENCY_URLS.search}${DEPENDENCY_PATHS.search}`, 'POST'],
      [`${DEPENDENCY_URLS.auth}${DEPENDENCY_PATHS.token}`, 'GET'],
    ]) {
      const response = await world.fetch(url, { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'Unknown endpoint' } });
    }
  });

  it('the fault engine wraps every route and the fallback, and only the API it names', async () => {
    world.faults.set([{ id: 's', dependency: 'reports', kind: 'status', status: 503 }]);
    expect((await world.fetch(`${DEPENDENCY_URLS.reports}${DEPENDENCY_PATHS.reports}?idempotency_key=x`)).status).toBe(
      503,
    );
    expect((await world.fetch(`${DEPENDENCY_URLS.reports}/v1/unknown`)).status).toBe(503);
    expect((await world.fetch(`${DEPENDENCY_URLS.search}${DEPENDENCY_PATHS.search}?q=x`)).status).toBe(200);
  });

  it('commit-then-fail on a route calls the real resolver (the effect lands) and spoils its answer', async () => {
    world.faults.set([{ id: 'c', dependency: 'reports', kind: 'commit-then-fail', status: 502 }]);
    const response = await world.fetch(
      `${DEPENDENCY_URLS.reports}${DEPENDENCY_PATHS.reports}`,
      json({ report_type: 'usage' }, { [IDEMPOTENCY_HEADER]: 'r-1' }),
    );
    expect(response.status).toBe(502);
    expect(world.ledger.list().map((e) => [e.kind, e.idempotencyKey])).toEqual([['report.generate', 'r-1']]);
  });
});

describe('idempotent create (reports, as payments)', () => {
  const publish = (key: string, reportType = 'usage') =>
    world.fetch(
      `${DEPENDENCY_URLS.reports}${DEPENDENCY_PATHS.reports}`,
      json({ report_type: reportType }, { [IDEMPOTENCY_HEADER]: key }),
    );

  it('same key and arguments replay without a second effect; other arguments are a 422; lookup by key', async () => {
    const first = await publish('k-1');
    expect(first.status).toBe(201);
    const created = await first.json();
    expect(created).toMatchObject({
      id: 'rep_000001',
      report_type: 'usage',
      status: 'ready',
      idempotency_key: 'k-1',
    });
    const replay = await publish('k-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(created);
    const reused = await publish('k-1', 'sales');
    expect(reused.status).toBe(422);
    expect((await reused.json()).error.code).toBe('idempotency_key_reused');
    expect(world.ledger.list()).toHaveLength(1);
    const found = await world.fetch(`${DEPENDENCY_URLS.reports}${DEPENDENCY_PATHS.reports}?idempotency_key=k-1`);
    expect(await found.json()).toEqual(created);
    expect((await publish('k-2')).status).toBe(201);
    expect(world.ledger.list().map((e) => e.details)).toEqual([{ reportId: 'rep_000001' }, { reportId: 'rep_000002' }]);
  });

  it('without a key every call creates', async () => {
    const send = () =>
      world.fetch(`${DEPENDENCY_URLS.reports}${DEPENDENCY_PATHS.reports}`, json({ report_type: 'usage' }));
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    expect(world.ledger.list()).toHaveLength(2);
  });
});
