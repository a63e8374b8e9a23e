// The dependency fault engine: faults keep their own state across changes to the active set (issue 13 item 4),
// and seeded draws follow each request's logical key, not arrival order (issue 13 item 7).
import { describe, expect, it } from 'vitest';
import { FaultEngine } from '../../../mocks/faults/engine.ts';
import { type DependencyFaultSpecInput, FAULT_KINDS, parseDependencyFaults } from '../../../mocks/faults/registry.ts';
import { DEPENDENCY_URLS, type DependencyName } from '../../../src/core/dependency-contract.ts';
import type { DecisionRecord } from '../../../src/core/history.ts';
import { RandomStream } from '../../../src/core/random.ts';
import { ATTEMPT_HEADER, TRACE_HEADER } from '../../../src/core/wire.ts';

function engine(seed = 3) {
  const decisions: DecisionRecord[] = [];
  return { engine: new FaultEngine(seed, (d) => decisions.push(d)), decisions };
}

const ok = async () => new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });

function request(dependency: DependencyName, headers: Record<string, string> = {}, method = 'POST') {
  return new Request(`${DEPENDENCY_URLS[dependency]}/v1/x`, { method, headers });
}

async function status(e: FaultEngine, dependency: DependencyName, headers?: Record<string, string>) {
  return (await e.run(dependency, request(dependency, headers), ok)).status;
}

const flapA: DependencyFaultSpecInput = { id: 'A', dependency: 'payments', kind: 'flap', failTimes: 2, status: 503 };
const statusB: DependencyFaultSpecInput = { id: 'B', dependency: 'search', kind: 'status', status: 500 };

describe('faults are independent', () => {
  it('adding fault B on another API does not reset "fail 2 times then succeed" A', async () => {
    const { engine: e } = engine();
    e.set([flapA]);
    expect(await status(e, 'payments')).toBe(503);
    e.set([flapA, statusB]);
    expect(await status(e, 'search')).toBe(500);
    expect([await status(e, 'payments'), await status(e, 'payments'), await status(e, 'payments')]).toEqual([
      503, 200, 200,
    ]);
  });

  it('removing fault B does not reset A either', async () => {
    const { engine: e } = engine();
    e.set([statusB, flapA]);
    expect(await status(e, 'payments')).toBe(503);
    e.set([flapA]);
    expect(await status(e, 'search')).toBe(200);
    expect([await status(e, 'payments'), await status(e, 'payments'), await status(e, 'payments')]).toEqual([
      503, 200, 200,
    ]);
  });

  it('a fault whose content changes, or that is removed and added again, starts afresh', async () => {
    const { engine: e } = engine();
    e.set([flapA]);
    expect([await status(e, 'payments'), await status(e, 'payments'), await status(e, 'payments')]).toEqual([
      503, 503, 200,
    ]);
    e.set([{ ...flapA, failTimes: 1 }]);
    expect([await status(e, 'payments'), await status(e, 'payments')]).toEqual([503, 200]);
    e.set([]);
    e.set([{ ...flapA, failTimes: 1 }]);
    expect([await status(e, 'payments'), await status(e, 'payments')]).toEqual([503, 200]);
  });

  it('a kept fault keeps its activation time', async () => {
    const { engine: e } = engine();
    const expiry: DependencyFaultSpecInput = { id: 'E', dependency: 'payments', kind: 'auth-expiry', ttlMs: 150 };
    e.set([expiry]);
    await new Promise((r) => setTimeout(r, 200));
    e.set([expiry, statusB]);
    // Rebuilt, the fault would count the token's age from now and let this call through.
    expect(await status(e, 'payments')).toBe(401);
  });

  it("a kept fault's random stream continues where it was, rather than restarting", async () => {
    const coin: DependencyFaultSpecInput = {
      id: 'C',
      dependency: 'payments',
      kind: 'status',
      status: 503,
      probability: 0.5,
    };
    const { engine: e, decisions } = engine(9);
    e.set([coin]);
    for (let i = 0; i < 4; i++) await status(e, 'payments');
    e.set([coin, statusB]);
    for (let i = 0; i < 4; i++) await status(e, 'payments');
    e.set([coin]);
    for (let i = 0; i < 4; i++) await status(e, 'payments');
    const reference = new RandomStream(9, 'deps/fault/C');
    const expected = Array.from({ length: 12 }, () => reference.chance('x', 0.5));
    expect(decisions.filter((d) => d.stream === 'deps/fault/C').map((d) => d.value)).toEqual(expected);
    expect(new Set(expected).size).toBe(2); // both outcomes occur, so a restart would show
  });
});

describe('same seed, same faults', () => {
  const coin: DependencyFaultSpecInput = {
    id: 'coin',
    dependency: 'payments',
    kind: 'status',
    status: 503,
    probability: 0.5,
  };
  const jitter: DependencyFaultSpecInput = { id: 'jit', dependency: 'payments', kind: 'latency', ms: 0, jitterMs: 2 };

  /** Ops op-0..op-9, two attempts each, two requests per attempt; attempts' requests keep their own order. */
  const keyed = Array.from({ length: 10 }, (_, op) =>
    [1, 2].map((attempt) => ({ [TRACE_HEADER]: `op-${op}`, [ATTEMPT_HEADER]: String(attempt) })),
  ).flat();

  async function runAll(e: FaultEngine, order: Record<string, string>[]) {
    const answers = new Map<string, number[]>();
    for (const headers of order) {
      const id = `${headers[TRACE_HEADER]}#${headers[ATTEMPT_HEADER]}`;
      const first = await status(e, 'payments', headers);
      const second = await status(e, 'payments', headers);
      answers.set(id, [first, second]);
    }
    return answers;
  }

  const byStream = (decisions: DecisionRecord[]) =>
    Object.fromEntries(decisions.map((d) => [`${d.stream} ${d.what}`, d.value]));

  it('two engines with one seed make the same decisions for the same keyed requests in different orders', async () => {
    const one = engine(7);
    const two = engine(7);
    one.engine.set([coin, jitter]);
    two.engine.set([coin, jitter]);
    const forwards = await runAll(one.engine, keyed);
    const shuffled = [...keyed].reverse();
    shuffled.push(...shuffled.splice(0, 7));
    const backwards = await runAll(two.engine, shuffled);
    expect(Object.fromEntries(backwards)).toEqual(Object.fromEntries(forwards));
    expect(byStream(two.decisions)).toEqual(byStream(one.decisions));
    // Every request drew the coin; the jitter drew where the coin let the request through. All logged by key.
    const drawsOf = (id: string) => one.decisions.filter((d) => d.stream.startsWith(`deps/fault/${id}/`)).length;
    const passed = [...forwards.values()].flat().filter((s) => s === 200).length;
    expect(drawsOf('coin')).toBe(keyed.length * 2);
    expect(drawsOf('jit')).toBe(passed);
    expect(one.decisions.map((d) => d.stream)).toContain('deps/fault/coin/op-3/attempt-2/request-2');
    expect(one.decisions.filter((d) => d.stream.startsWith('deps/fault/jit/op-')).length).toBeGreaterThan(0);
    // Both outcomes occur, so the equality above is not the trivial one.
    expect(new Set([...forwards.values()].flat())).toEqual(new Set([200, 503]));
  });

  it('another seed makes other decisions; a reset replays the same keys from the beginning', async () => {
    const a = engine(7);
    const b = engine(8);
    a.engine.set([coin]);
    b.engine.set([coin]);
    const first = await runAll(a.engine, keyed);
    expect(Object.fromEntries(await runAll(b.engine, keyed))).not.toEqual(Object.fromEntries(first));
    a.engine.reset();
    a.engine.set([coin]);
    expect(Object.fromEntries(await runAll(a.engine, keyed))).toEqual(Object.fromEntries(first));
  });

  it('the request ordinal counts every request of the attempt, so the active set does not shift the key', async () => {
    const { engine: e, decisions } = engine(7);
    const headers = { [TRACE_HEADER]: 'op-1', [ATTEMPT_HEADER]: '1' };
    await status(e, 'payments', headers); // no fault yet: request-1
    e.set([coin]);
    await status(e, 'payments', headers);
    expect(decisions.map((d) => d.stream)).toEqual(['deps/fault/coin/op-1/attempt-1/request-2']);
  });

  it('no attempt header: the key is trace and ordinal; no trace: draws follow arrival order', async () => {
    const { engine: e, decisions } = engine(7);
    e.set([coin]);
    await status(e, 'payments', { [TRACE_HEADER]: 'op-1/lookup' });
    await status(e, 'payments');
    await status(e, 'payments');
    expect(decisions.map((d) => d.stream)).toEqual([
      'deps/fault/coin/op-1/lookup/request-1',
      'deps/fault/coin',
      'deps/fault/coin',
    ]);
    const reference = new RandomStream(7, 'deps/fault/coin');
    expect(decisions.slice(1).map((d) => d.value)).toEqual([reference.chance('x', 0.5), reference.chance('x', 0.5)]);
  });
});

describe('every fault proves it hit', () => {
  it('counts, per fault id, the requests each fault acted on; kept after removal, cleared by reset', async () => {
    const { engine: e } = engine();
    e.set([flapA, statusB]);
    for (let i = 0; i < 4; i++) await status(e, 'payments'); // 2 failures, then 2 let through
    await status(e, 'search');
    e.set([]);
    await status(e, 'search');
    expect(e.hits.all()).toEqual({ A: 2, B: 1 });
    e.reset();
    expect(e.hits.all()).toEqual({});
  });

  it('a fault on an API no request calls, or that never fires, counts 0 (the negative control)', async () => {
    const { engine: e } = engine();
    const never: DependencyFaultSpecInput = {
      id: 'N',
      dependency: 'payments',
      kind: 'status',
      status: 503,
      probability: 0,
    };
    e.set([statusB, never]);
    for (let i = 0; i < 3; i++) expect(await status(e, 'payments')).toBe(200);
    expect(e.hits.of('B')).toBe(0);
    expect(e.hits.of('N')).toBe(0);
  });

  it('a fault that lets a request through untouched does not count it', async () => {
    const { engine: e } = engine();
    const quota: DependencyFaultSpecInput = {
      id: 'Q',
      dependency: 'payments',
      kind: 'rate-limit',
      retryAfterS: 1,
      quotaPerSecond: 2,
    };
    e.set([quota]);
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(await status(e, 'payments'));
    expect(seen).toEqual([200, 200, 429]);
    expect(e.hits.of('Q')).toBe(1);
  });
});

describe('every dependency fault kind counts the request it acts on', () => {
  // Parameters that make each kind act on its first request; a new kind must add its own here.
  const acting: Record<string, Record<string, unknown>> = {
    latency: { ms: 1 },
    hang: {},
    status: { status: 500 },
    'commit-then-delay': { ms: 1 },
    'commit-then-fail': {},
    'rate-limit': { retryAfterS: 1 },
    'network-error': {},
    'auth-expiry': { ttlMs: 0 },
    malformed: { variant: 'truncated' },
    oversized: { bytes: 10 },
    flap: { failTimes: 1 },
    'leak-canary': {},
    'fabricated-success': {},
  };

  it.each(FAULT_KINDS.map((k) => k.kind))('%s', async (kind) => {
    expect(acting[kind], `no acting parameters for ${kind}`).toBeDefined();
    const { engine: e } = engine();
    e.set([{ id: 'K', dependency: 'payments', kind, ...acting[kind] } as DependencyFaultSpecInput]);
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 20); // ends a hang
    const req = new Request(`${DEPENDENCY_URLS.payments}/v1/x`, { method: 'POST', signal: abort.signal });
    await e.run('payments', req, ok).catch(() => undefined);
    expect(e.hits.of('K')).toBe(1);
  });
});

describe('fabricated-success', () => {
  it('answers 2xx with the request echoed, an id and a success status, and never calls the dependency', async () => {
    const { engine: e } = engine();
    e.set([{ id: 'F', dependency: 'payments', kind: 'fabricated-success', method: 'POST' }]);
    let called = 0;
    const dependency = async () => {
      called++;
      return ok();
    };
    const charge = (amount: number) =>
      new Request(`${DEPENDENCY_URLS.payments}/v1/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: 'cus_1', amount_cents: amount, currency: 'USD' }),
      });
    const first = await e.run('payments', charge(250), dependency);
    const second = await e.run('payments', charge(300), dependency);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      customer_id: 'cus_1',
      amount_cents: 250,
      currency: 'USD',
      id: 'fabricated_1',
      status: 'succeeded',
    });
    expect((await second.json()).id).toBe('fabricated_2');
    // A GET is not in the fault's method filter: it reaches the dependency.
    expect((await e.run('payments', request('payments', {}, 'GET'), dependency)).status).toBe(200);
    expect(called).toBe(1);
    expect(e.hits.of('F')).toBe(2);
  });

  it('refuses a status that is not 2xx', () => {
    expect(() =>
      parseDependencyFaults([{ id: 'F', dependency: 'payments', kind: 'fabricated-success', status: 500 }]),
    ).toThrow(/`status` must be a 2xx HTTP status/);
  });
});
