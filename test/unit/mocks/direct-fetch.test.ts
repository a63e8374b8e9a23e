// The world's direct fetch fails as msw's fetch did (the reference server's dependency client reads these): a
// network-error fault rejects with its socket code as the cause (before or after the effect), an abort rejects
// while the handler goes on, and no API means no answer.
import { beforeEach, describe, expect, it } from 'vitest';
import { directFetch } from '../../../mocks/direct-fetch.ts';
import { DependencyWorld } from '../../../mocks/world.ts';
import { DEPENDENCY_PATHS, DEPENDENCY_URLS } from '../../../src/core/dependency-contract.ts';
import { socketCause } from '../../../src/core/socket-cause.ts';
import { IDEMPOTENCY_HEADER } from '../../../src/core/wire.ts';

let world: DependencyWorld;
beforeEach(() => {
  world = new DependencyWorld(5);
});

const charge = (door: typeof fetch, init: RequestInit = {}) =>
  door(`${DEPENDENCY_URLS.payments}${DEPENDENCY_PATHS.charges}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: 'k-1' },
    body: JSON.stringify({ customer_id: 'c', amount_cents: 100, currency: 'USD' }),
    ...init,
  });

async function failure(request: Promise<Response>): Promise<unknown> {
  try {
    await request;
  } catch (error) {
    return error;
  }
  throw new Error('the request did not fail');
}

describe('direct fetch', () => {
  it.each(['before', 'after'] as const)('a network error %s the effect rejects with its socket code', async (when) => {
    world.faults.set([{ id: 'n', dependency: 'payments', kind: 'network-error', when }]);
    const error = await failure(charge(world.fetch));
    expect(error).toBeInstanceOf(TypeError);
    expect(socketCause(error)).toBe(when === 'before' ? 'ECONNREFUSED' : 'ECONNRESET');
    expect(world.ledger.list()).toHaveLength(when === 'before' ? 0 : 1);
  });

  it('an abort rejects with the reason while a hang holds the answer', async () => {
    world.faults.set([{ id: 'h', dependency: 'payments', kind: 'hang' }]);
    const aborter = new AbortController();
    const pending = failure(charge(world.fetch, { signal: aborter.signal }));
    aborter.abort(new Error('deadline'));
    expect(((await pending) as Error).message).toBe('deadline');
    expect(world.hits.of('h')).toBe(1);
  });

  it("the handler's request carries the caller's signal itself, not a follower of it", async () => {
    // A follower is undici's: a controller, a listener and a FinalizationRegistry entry per request, which held
    // the caller's signal in the loaded server child until a full collection (docs/scale.md).
    const seen: Request[] = [];
    const door = directFetch(async (request) => {
      seen.push(request);
      return new Response('{}');
    });
    const aborter = new AbortController();
    await door('https://payments.faultline.test/v1/x', { method: 'POST', body: '{}', signal: aborter.signal });
    expect(seen[0]?.signal).toBe(aborter.signal);
    expect(await seen[0]?.text()).toBe('{}');
  });

  it('a URL no API serves is a network error (negative control: a served one answers)', async () => {
    expect(await failure(world.fetch('https://elsewhere.faultline.test/v1/x'))).toBeInstanceOf(TypeError);
    expect((await charge(world.fetch)).status).toBe(201);
  });
});
