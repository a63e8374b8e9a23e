// The payments feed's keys, kept as joined text, come back as announced, across chunk boundaries and after a clear.
import { describe, expect, it } from 'vitest';
import { ChargeFeed } from '../../../src/server/charge-feed.ts';

describe('ChargeFeed', () => {
  it('lists every key announced, oldest first, and tells each listener of each', () => {
    const feed = new ChargeFeed();
    const heard: string[] = [];
    const stop = feed.onCharge((key) => heard.push(key));
    const keys = Array.from({ length: 2500 }, (_, i) => `op-${i}:pay.${i % 3}`);
    for (const key of keys) feed.announce(key);
    expect(feed.keys()).toEqual(keys);
    expect(heard).toEqual(keys);
    stop();
    feed.clear();
    expect(feed.keys()).toEqual([]);
    feed.announce('after-clear');
    expect(feed.keys()).toEqual(['after-clear']);
    expect(heard).toHaveLength(2500);
  });

  it('refuses a key it could not split back (no idempotency key holds a line break)', () => {
    expect(() => new ChargeFeed().announce('a\nb')).toThrow(/line break/);
  });
});
