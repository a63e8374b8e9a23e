import { InvalidArgumentError } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownedOps, ownsOp, parseShard, shardOrder, shareOf, workerShare } from '../../../src/core/shard.ts';

const profile = (name: string, file = `chaos-profiles/${name}.yaml`) => ({ file, profile: { name } });

describe('parseShard', () => {
  it('reads i/n, 1-based', () => {
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('3/4')).toEqual({ index: 3, count: 4 });
  });

  it.each(['0/2', '3/2', '1/0', '2', '1/2/3', '-1/2', 'a/b', '1 /2', '', '1/10001', '1.5/2'])(
    'refuses %j in one line that says what is expected',
    (bad) => {
      expect(() => parseShard(bad)).toThrow(InvalidArgumentError);
      expect(() => parseShard(bad)).toThrow(/^expected i\/n with 1 <= i <= n <= 10000 \(e\.g\. 2\/4/);
    },
  );
});

describe('shareOf: whole profiles', () => {
  const names = ['network-reset', 'baseline', 'dependency-5xx', 'sse-cut', 'auth-expiry'];
  const profiles = names.map((n) => profile(n));

  it('deals sorted profiles round-robin', () => {
    const share = (i: number) => shareOf(profiles, { index: i, count: 2 });
    expect(share(1)).toEqual({
      split: 'profiles',
      profiles: [profile('auth-expiry'), profile('dependency-5xx'), profile('sse-cut')],
    });
    expect(share(2)).toEqual({ split: 'profiles', profiles: [profile('baseline'), profile('network-reset')] });
  });

  it('gives every profile to exactly one shard, whatever order the files were named in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 2, maxLength: 30 }),
        fc.integer({ min: 1, max: 12 }),
        (list, n) => {
          const shuffled = list.map((name) => profile(name)).reverse();
          const parts = Array.from({ length: n }, (_, k) => {
            const share = shareOf(shuffled, { index: k + 1, count: n });
            if (share.split !== 'profiles') throw new Error('expected a profile split');
            return share.profiles.map((p) => p.profile.name);
          });
          expect(parts.flat().sort()).toEqual([...list].sort());
          expect(new Set(parts.flat()).size).toBe(list.length);
          // Same answer from a different input order: the rule depends on names only.
          const again = shareOf(
            list.map((name) => profile(name)),
            { index: 1, count: n },
          );
          expect(again.split === 'profiles' && again.profiles.map((p) => p.profile.name)).toEqual(parts[0]);
        },
      ),
      { seed: 30, numRuns: 150 },
    );
  });

  it('orders by name, then by file name when two files share a name', () => {
    expect(shardOrder([profile('b', 'x/b2.yaml'), profile('b', 'y/b1.yaml'), profile('a')]).map((p) => p.file)).toEqual(
      ['chaos-profiles/a.yaml', 'y/b1.yaml', 'x/b2.yaml'],
    );
  });

  it('leaves a shard empty when there are fewer profiles than shards', () => {
    expect(shareOf([profile('a'), profile('b')], { index: 3, count: 3 })).toEqual({ split: 'profiles', profiles: [] });
  });

  it('runs everything unsharded (1/1), one profile included', () => {
    expect(shareOf([profile('a')], { index: 1, count: 1 })).toEqual({ split: 'profiles', profiles: [profile('a')] });
  });
});

describe('shareOf: one profile split by ops', () => {
  it('splits a single profile by ops when there is more than one shard', () => {
    expect(shareOf([profile('big')], { index: 2, count: 3 })).toEqual({ split: 'ops', profile: profile('big') });
  });

  it('owns strided op indices that partition the schedule exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 500 }), (n, total) => {
        const parts = Array.from({ length: n }, (_, k) => ownedOps({ index: k + 1, count: n }, total));
        const all = parts.flat().sort((a, b) => a - b);
        expect(all).toEqual(Array.from({ length: total }, (_, i) => i));
        for (const [k, part] of parts.entries()) {
          for (const i of part) expect(ownsOp({ index: k + 1, count: n }, i)).toBe(true);
          // Balanced: shares differ by at most one op.
          expect(Math.abs(part.length - total / n)).toBeLessThan(1);
        }
      }),
      { seed: 31, numRuns: 200 },
    );
  });

  it('spreads a window of consecutive ops over every shard (strided, not contiguous)', () => {
    expect(ownedOps({ index: 2, count: 4 }, 12)).toEqual([1, 5, 9]);
  });

  it('deals closed-model workers so the shards add up to the profile concurrency', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 200 }), (n, concurrency) => {
        const shares = Array.from({ length: n }, (_, k) => workerShare({ index: k + 1, count: n }, concurrency));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(concurrency);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }),
      { seed: 32, numRuns: 200 },
    );
  });
});
