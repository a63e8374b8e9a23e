import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/profile/load.ts';
import { shardProfiles } from '../../../src/run/shard-output.ts';

const shipped = (name: string) =>
  loadProfile(fileURLToPath(new URL(`../../../chaos-profiles/${name}.yaml`, import.meta.url)));

describe('shardProfiles', () => {
  it('deals several profiles out by name', () => {
    const all = [shipped('network-reset'), shipped('baseline'), shipped('dependency-5xx')];
    expect(shardProfiles(all, { index: 1, count: 2 }).map((l) => l.profile.name)).toEqual([
      'baseline',
      'network-reset',
    ]);
    expect(shardProfiles(all, { index: 2, count: 2 }).map((l) => l.profile.name)).toEqual(['dependency-5xx']);
  });

  it('refuses to split one profile by ops until the workload hook lands, in one line that says what to do', () => {
    const error = (() => {
      try {
        shardProfiles([shipped('baseline')], { index: 2, count: 3 });
      } catch (e) {
        return e as Error & { userFacing?: boolean };
      }
    })();
    expect(error?.message).toMatch(/^--shard 2\/3: one profile \(baseline\) is split by its ops, .*--shard 1\/1$/);
    expect(error?.message).not.toContain('\n');
    expect(error?.userFacing).toBe(true);
    expect(shardProfiles([shipped('baseline')], { index: 1, count: 1 })).toHaveLength(1);
  });
});
