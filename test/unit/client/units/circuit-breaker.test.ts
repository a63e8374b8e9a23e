// The circuit breaker unit: after N DEPENDENCY failures in a row the tool's calls fail fast (no call leaves the
// client) until the half-open delay has passed; one probe then closes it again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callThrough } from '../../../../src/client/policies/compose.ts';
import { Breakers, circuitBreaker } from '../../../../src/client/units/circuit-breaker.ts';
import type { BreakerEvent } from '../../../../src/core/history.ts';
import { type Answer, FakeSession, ok, opRun, toolError } from '../fakes.ts';

vi.mock('../../../../src/core/clock.ts', () => ({ epochMs: () => Date.now() }));

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const down = toolError('DEPENDENCY', 'DEPENDENCY.UNAVAILABLE');

function setup() {
  const events: BreakerEvent[] = [];
  const breakers = new Breakers({ consecutiveFailures: 3, halfOpenAfterMs: 1000 }, (e) => events.push(e));
  let answer: Answer = down;
  const session = new FakeSession(() => answer);
  const runOp = async () => {
    const { op } = opRun(session);
    return (await callThrough(op, [circuitBreaker(op, breakers)])).fields;
  };
  return { events, session, runOp, answer: (a: Answer) => (answer = a) };
}

describe('circuit breaker', () => {
  it('opens after 3 DEPENDENCY failures in a row and then fails fast without calling', async () => {
    const { events, session, runOp } = setup();
    for (let i = 0; i < 3; i++) expect((await runOp()).errorCode).toBe('DEPENDENCY.UNAVAILABLE');
    expect(session.calls).toHaveLength(3);
    expect(events.map((e) => `${e.key}:${e.state}`)).toEqual(['create_payment:open']);
    const refused = await runOp();
    expect(session.calls).toHaveLength(3);
    expect(refused).toMatchObject({
      outcome: 'fail',
      attempts: 0,
      circuitOpen: true,
      category: 'DEPENDENCY',
      errorCode: 'DEPENDENCY.CIRCUIT_OPEN',
    });
  });

  it('lets one probe through after the half-open delay, and closes when it succeeds', async () => {
    const { events, session, runOp, answer } = setup();
    for (let i = 0; i < 3; i++) await runOp();
    answer(ok());
    await vi.advanceTimersByTimeAsync(999);
    expect((await runOp()).circuitOpen).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect((await runOp()).outcome).toBe('ok');
    expect(session.calls).toHaveLength(4);
    expect(events.map((e) => e.state)).toEqual(['open', 'half-open', 'closed']);
  });

  it('is not opened by failures that do not say the dependency is down', async () => {
    const { events, session, runOp, answer } = setup();
    answer(toolError('VALIDATION', 'VALIDATION.INVALID_ARGUMENTS'));
    for (let i = 0; i < 5; i++) await runOp();
    expect(session.calls).toHaveLength(5);
    expect(events).toEqual([]);
  });
});
