// Replay accounting in the client: each retry counted by how the attempt before it ended, and judged unsafe when
// it replays an unknown outcome that nothing the tool declares makes safe (the naive policy's fresh keys).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLICIES } from '../../../src/client/policies/index.ts';
import type { LogicalCall } from '../../../src/client/policy.ts';
import { unsafeReplay } from '../../../src/client/replay.ts';
import type { AttemptRecord } from '../../../src/core/history.ts';
import type { PolicyName } from '../../../src/core/policy-names.ts';
import { RandomStream } from '../../../src/core/random.ts';
import { declaredTraitsOf } from '../../../src/server/tools/catalog.ts';
import { type Answer, FakeSession, ok, SETTINGS, toolError } from './fakes.ts';

vi.mock('../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const unavailable = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE', {
  retryable: true,
  details: { uncertain: true },
});
const refused = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE', { retryable: true, details: { uncertain: false } });

/** One create_payment op against the reference server's traits (its key honoured, its hints as listed). */
async function run(name: PolicyName, answer: (i: number) => Answer, extra: Partial<LogicalCall> = {}) {
  const session = new FakeSession((_, i) => answer(i));
  const attempts: AttemptRecord[] = [];
  const runOp = POLICIES[name].forRun({
    session,
    client: SETTINGS,
    serverRefreshesCredentials: true,
    traitsOf: (tool) => ({ ...declaredTraitsOf(tool), ...extra }),
    recordAttempt: (a) => attempts.push(a),
    recordBreakerEvent: () => {},
  });
  const op = { index: 0, opId: 'op-00000', tool: 'create_payment', args: { amount_cents: 100 } };
  const done = runOp(op, new RandomStream(1, 'client/op-00000'));
  await vi.runAllTimersAsync();
  return { ...(await done), replays: attempts.filter((a) => a.tool === 'create_payment').map((a) => a.replay) };
}

describe('replay accounting', () => {
  it('naive: every retry after an unknown outcome is unsafe (a fresh key is new arguments, no key honoured)', async () => {
    const r = await run('naive', (i) => (i < 2 ? unavailable : ok()));
    expect(r).toMatchObject({ attempts: 3, retries: 2, replaysAfterUnknown: 2, unsafeReplays: 2 });
    // Each retry's attempt record says so too (trace.jsonl shows it).
    expect(r.replays).toEqual([undefined, { after: 'unknown', unsafe: true }, { after: 'unknown', unsafe: true }]);
  });

  it('naive after a failure known to have taken no effect: retries, none after unknown, none unsafe', async () => {
    const r = await run('naive', (i) => (i < 1 ? refused : ok()));
    expect(r).toMatchObject({ attempts: 2, retries: 1 });
    expect(r.replaysAfterUnknown).toBeUndefined();
    expect(r.unsafeReplays).toBeUndefined();
  });

  it('resilient: a lookup that cannot tell leaves the replay after unknown, but the same honoured key makes it safe', async () => {
    const r = await run('resilient', (i) => (i === 0 ? unavailable : i === 1 ? ok({ status: 'pending' }) : ok()));
    expect(r).toMatchObject({ outcome: 'ok', retries: 1, replaysAfterUnknown: 1 });
    expect(r.unsafeReplays).toBeUndefined();
    expect(r.replays).toEqual([undefined, { after: 'unknown' }]);
  });

  it('resilient: a lookup that finds no effect settles the outcome, so the replay is after a failure', async () => {
    const r = await run('resilient', (i) => (i === 0 ? unavailable : i === 1 ? ok({ status: 'not_found' }) : ok()));
    expect(r).toMatchObject({ outcome: 'ok', retries: 1 });
    expect(r.replaysAfterUnknown).toBeUndefined();
    expect(r.replays).toEqual([undefined, { after: 'fail' }]);
  });

  it('the same keyed replay is unsafe when the server does not honour the key', async () => {
    const r = await run('resilient', (i) => (i === 0 ? unavailable : i === 1 ? ok({ status: 'pending' }) : ok()), {
      keyHonoured: false,
      idempotent: false,
    });
    expect(r).toMatchObject({ replaysAfterUnknown: 1, unsafeReplays: 1 });
  });

  it('the op record carries the tool hints and how many identical calls it sent', async () => {
    const r = await run('naive', (i) => (i < 1 ? unavailable : ok()));
    expect(r.hints).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    // Naive changes the key on each attempt: only its first call carries the first arguments.
    expect(r.identicalCalls).toBe(1);
  });
});

describe('unsafeReplay', () => {
  const write = { sideEffecting: true };
  it('only a replay after an unknown outcome can be unsafe', () => {
    expect(unsafeReplay('ok', write, false)).toBe(false);
    expect(unsafeReplay('fail', write, false)).toBe(false);
    expect(unsafeReplay('unknown', write, true)).toBe(true);
  });
  it('a read, a declared idempotent tool or an honoured key with the same arguments is safe', () => {
    expect(unsafeReplay('unknown', { sideEffecting: false }, false)).toBe(false);
    expect(unsafeReplay('unknown', { ...write, idempotent: true }, true)).toBe(false);
    expect(unsafeReplay('unknown', { ...write, keyHonoured: true }, true)).toBe(false);
  });
  it('changed arguments void the declaration and the key', () => {
    expect(unsafeReplay('unknown', { ...write, idempotent: true, keyHonoured: true }, false)).toBe(true);
  });
});
