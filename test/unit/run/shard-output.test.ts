import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/profile/load.ts';
import { shardProfiles } from '../../../src/run/shard-output.ts';

const shipped = (name: string) =>
  loadProfile(fileURLToPath(new URL(`../../../chaos-profiles/${name}.yaml`, import.meta.url)));

describe('shardProfiles', () => {
  it('deals several profiles out by name', () => {
    const all = [shipped('network-reset'), shipped('baseline'), shipped('dependency-5xx')];
    expect(shardProfiles(all, { index: 1, count: 2 }).profiles.map((l) => l.profile.name)).toEqual([
      'baseline',
      'network-reset',
    ]);
    expect(shardProfiles(all, { index: 2, count: 2 }).profiles.map((l) => l.profile.name)).toEqual(['dependency-5xx']);
    expect(shardProfiles(all, { index: 2, count: 2 }).opShard).toBeUndefined();
  });

  it('splits one profile by its ops: the profile, and the shard its workload runs', () => {
    const share = shardProfiles([shipped('baseline')], { index: 2, count: 3 });
    expect(share.profiles.map((l) => l.profile.name)).toEqual(['baseline']);
    expect(share.opShard).toEqual({ index: 2, count: 3 });
    expect(shardProfiles([shipped('baseline')], { index: 1, count: 1 }).opShard).toBeUndefined();
  });

  it('splits one url-target profile by ops too (its keys are scoped by run and shard: run/trace-key.ts)', () => {
    const base = shipped('baseline');
    const url = {
      ...base,
      profile: { ...base.profile, target: { kind: 'url' as const, url: 'http://127.0.0.1:1/mcp', adminTokenEnv: 'X' } },
    };
    expect(shardProfiles([url], { index: 2, count: 3 }).opShard).toEqual({ index: 2, count: 3 });
  });
});
