import { describe, expect, it } from 'vitest';
import { AttemptOrdinals, ordinalGenerationFor, RequestKeys, requestKey } from '../../../src/core/logical-key.ts';

describe('request keys of scoped trace ids', () => {
  it('key on the op id, so a shard draws what the whole run draws for the same op', () => {
    const whole = new RequestKeys();
    const shard = new RequestKeys();
    expect(shard.next({ trace: 'ci-7:2-of-2:checkout:op-00003', attempt: 1 })).toBe(
      whole.next({ trace: 'op-00003', attempt: 1 }),
    );
    expect(whole.next({ trace: 'op-00003', attempt: 1 })).toBe('op-00003/attempt-1/request-2');
  });

  it('count requests per whole trace id: another run or profile with the same op id starts at request 1', () => {
    const seen = new Map<string, number>();
    expect(requestKey('ci-7:1-of-2:checkout:op-00003', 1, seen)).toBe('op-00003/attempt-1/request-1');
    expect(requestKey('ci-8:1-of-2:checkout:op-00003', 1, seen)).toBe('op-00003/attempt-1/request-1');
    expect(requestKey('ci-7:1-of-2:checkout:op-00003', 1, seen)).toBe('op-00003/attempt-1/request-2');
    expect(requestKey('op-00003/lookup', undefined, seen)).toBe('op-00003/lookup/request-1');
  });
});

describe('attempt ordinals', () => {
  it('keep counting across generations while an attempt goes on, and forget an attempt quiet for a whole one', () => {
    let now = 0;
    const ordinals = new AttemptOrdinals(1000, () => now);
    expect(requestKey('op-1', 1, ordinals)).toBe('op-1/attempt-1/request-1');
    requestKey('op-2', 1, ordinals);
    now = 1500; // one generation on: both are still known
    expect(requestKey('op-1', 1, ordinals)).toBe('op-1/attempt-1/request-2');
    now = 2600; // op-1 was counted a generation ago; op-2 has been quiet for two
    expect(requestKey('op-1', 1, ordinals)).toBe('op-1/attempt-1/request-3');
    expect(ordinals.size).toBe(1);
    // Control: a quiet attempt is forgotten, so a request under its key would count from 1 again.
    expect(requestKey('op-2', 1, ordinals)).toBe('op-2/attempt-1/request-1');
  });

  it('hold only the attempts of the last two generations, however many a long run made', () => {
    let now = 0;
    const ordinals = new AttemptOrdinals(1000, () => now);
    for (let i = 0; i < 10_000; i++) {
      now = i; // one attempt a millisecond: ten generations in all
      requestKey(`op-${i}`, 1, ordinals);
    }
    expect(ordinals.size).toBeLessThanOrEqual(2000);
    expect(ordinals.size).toBeGreaterThanOrEqual(1000);
  });

  it('last twice the longest an op can take, between a minute and ten', () => {
    expect(ordinalGenerationFor(8000 + 2000)).toBe(60_000); // the defaults: a minute
    expect(ordinalGenerationFor(30_000 + 10_000)).toBe(80_000);
    expect(ordinalGenerationFor(3_600_000)).toBe(600_000);
    expect(ordinalGenerationFor(Number.POSITIVE_INFINITY)).toBe(600_000);
  });
});

describe('what an attempt is counted under', () => {
  /** A Map that notes the keys it is asked for. */
  const noting = () => {
    const keys: unknown[] = [];
    const seen = new Map<string | number, number>();
    const get = (k: string | number) => {
      keys.push(k);
      return seen.get(k);
    };
    return { keys, get, set: seen.set.bind(seen) };
  };

  it('a planned op id and a small attempt: one small integer, no string kept; the logical keys are the same', () => {
    const seen = noting();
    expect(requestKey('op-00012', 3, seen)).toBe('op-00012/attempt-3/request-1');
    expect(requestKey('op-00012', '3', seen)).toBe('op-00012/attempt-3/request-2');
    expect(requestKey('op-1234567', 15, seen)).toBe('op-1234567/attempt-15/request-1');
    expect(seen.keys).toEqual([12 * 16 + 3, 12 * 16 + 3, 1234567 * 16 + 15]);
  });

  it('any other spelling is counted under its own string, so no two attempts share a count', () => {
    const seen = noting();
    expect(requestKey('op-12', 3, seen)).toBe('op-12/attempt-3/request-1');
    expect(requestKey('op-000012', 3, seen)).toBe('op-000012/attempt-3/request-1');
    expect(requestKey('op-00012', 16, seen)).toBe('op-00012/attempt-16/request-1');
    expect(requestKey('op-00012', '03', seen)).toBe('op-00012/attempt-03/request-1');
    expect(requestKey('op-00012', 0, seen)).toBe('op-00012/attempt-0/request-1');
    expect(requestKey('op-00012', undefined, seen)).toBe('op-00012/request-1');
    expect(requestKey('ci:1-of-2:p:op-00012', 3, seen)).toBe('op-00012/attempt-3/request-1');
    expect(requestKey('op-00012', 3, seen)).toBe('op-00012/attempt-3/request-1');
    expect(seen.keys).toEqual([
      'op-12/attempt-3',
      'op-000012/attempt-3',
      'op-00012/attempt-16',
      'op-00012/attempt-03',
      'op-00012/attempt-0',
      'op-00012',
      'ci:1-of-2:p:op-00012/attempt-3',
      12 * 16 + 3,
    ]);
  });
});
