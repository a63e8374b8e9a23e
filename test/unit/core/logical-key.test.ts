import { describe, expect, it } from 'vitest';
import { RequestKeys, requestKey } from '../../../src/core/logical-key.ts';

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
