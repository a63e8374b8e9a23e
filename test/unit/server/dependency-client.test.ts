import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DependencyClient } from '../../../src/server/deps/dependency-client.ts';
import { Cancelled, DependencyFailure } from '../../../src/server/errors.ts';

const post = { method: 'POST', path: '/v1/charges', body: { amount: 1 }, sideEffecting: true } as const;

/** A dependency that answers `response` after `delayMs`, or rejects with the signal's reason when it aborts first. */
function dependency(response: () => Response, delayMs = 0): typeof fetch {
  return (_input, init) =>
    new Promise((resolve, reject) => {
      const signal = init?.signal as AbortSignal;
      // As fetch does: an aborted signal fails the call at once.
      if (signal.aborted) return reject(signal.reason);
      const timer = setTimeout(() => resolve(response()), delayMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'content-type': 'application/json', ...init.headers } });

describe('DependencyClient', () => {
  it('answers the data, and leaves no listener on the op signal once the call is over', async () => {
    const op = new AbortController();
    const client = new DependencyClient(
      5_000,
      dependency(() => json({ id: 'ch_1' })),
    );
    for (let i = 0; i < 3; i++) {
      const answer = await client.call('payments', post, { signal: op.signal });
      expect(answer).toEqual({ data: { id: 'ch_1' }, replayed: false });
    }
    expect(getEventListeners(op.signal, 'abort')).toHaveLength(0);
  });

  it("ends the call when the op is cancelled: Cancelled, and the dependency's fetch was aborted", async () => {
    const op = new AbortController();
    let aborted = false;
    const slow: typeof fetch = (input, init) => {
      const signal = init?.signal as AbortSignal;
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      return dependency(() => json({}), 60_000)(input, init);
    };
    const call = new DependencyClient(60_000, slow).call('payments', post, { signal: op.signal });
    setTimeout(() => op.abort(), 5);
    await expect(call).rejects.toBeInstanceOf(Cancelled);
    expect(aborted).toBe(true);
    expect(getEventListeners(op.signal, 'abort')).toHaveLength(0);
  });

  it('a call on an op already cancelled never waits for the dependency', async () => {
    const op = new AbortController();
    op.abort();
    const call = new DependencyClient(
      60_000,
      dependency(() => json({}), 60_000),
    ).call('payments', post, {
      signal: op.signal,
    });
    await expect(call).rejects.toBeInstanceOf(Cancelled);
  });

  it('times out on its own bound: a timeout failure, uncertain for a side-effecting call', async () => {
    const call = new DependencyClient(
      20,
      dependency(() => json({}), 60_000),
    ).call('payments', post, {
      signal: new AbortController().signal,
    });
    const failure = await call.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DependencyFailure);
    expect((failure as DependencyFailure).kind).toBe('timeout');
    expect((failure as DependencyFailure).info.sideEffecting).toBe(true);
  });

  it('keeps the raw headers of a failed answer, for the report', async () => {
    const answer = () => json({ error: { code: 'rate_limited' } }, { status: 429, headers: { 'retry-after': '2' } });
    const failure = (await new DependencyClient(5_000, dependency(answer))
      .call('payments', post, { signal: new AbortController().signal })
      .catch((error: unknown) => error)) as DependencyFailure;
    expect(failure.kind).toBe('status');
    expect(failure.info).toMatchObject({
      status: 429,
      apiCode: 'rate_limited',
      retryAfterMs: 2000,
      rawHeaders: { 'content-type': 'application/json', 'retry-after': '2' },
    });
  });
});
