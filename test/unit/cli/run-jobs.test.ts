// When `faultline run` runs profiles at once: each profile's own server and proxies, yes; anything two profiles at
// once would share (a server reached by URL, an external Toxiproxy, a client module's state), one at a time, said.
import { describe, expect, it } from 'vitest';
import { DEFAULT_JOBS, runJobs, setsUpDuringDrain } from '../../../src/cli/run-jobs.ts';
import type { LoadedProfile } from '../../../src/profile/load.ts';

const loaded = (name: string, target: string, module?: string) =>
  ({
    file: `${name}.yaml`,
    profile: { name, target: { kind: target }, client: { module } },
  }) as unknown as LoadedProfile;
const OWN = [loaded('a', 'reference'), loaded('b', 'reference-stdio'), loaded('c', 'stdio')];

function jobs(flags: Parameters<typeof runJobs>[0], profiles = OWN) {
  const said: string[] = [];
  return { jobs: runJobs(flags, profiles, (line) => said.push(line)), said };
}

describe('runJobs', () => {
  it('profiles with their own servers set up while the last one drains', () => {
    expect(setsUpDuringDrain({ toxiproxy: 'embedded' }, OWN)).toBe(true);
    expect(setsUpDuringDrain({ toxiproxy: 'container', jobs: 1 }, OWN)).toBe(true);
  });

  it('profiles with their own servers run as many at once as asked, the default without --jobs', () => {
    expect(jobs({ toxiproxy: 'embedded', jobs: 5 })).toEqual({ jobs: 5, said: [] });
    expect(jobs({ toxiproxy: 'container' })).toEqual({ jobs: DEFAULT_JOBS, said: [] });
    expect(jobs({ toxiproxy: 'embedded', jobs: 1 })).toEqual({ jobs: 1, said: [] });
  });

  const cases: [string, Parameters<typeof runJobs>[0], LoadedProfile[], RegExp][] = [
    [
      'a url target',
      { toxiproxy: 'embedded' },
      [...OWN, loaded('u', 'url')],
      /u reaches a server every profile shares/,
    ],
    ['an http target', { toxiproxy: 'embedded' }, [loaded('h', 'http')], /target http/],
    ['an external Toxiproxy', { toxiproxy: 'http://127.0.0.1:8474' }, OWN, /external Toxiproxy/],
    ['--client-module', { toxiproxy: 'embedded', clientModule: '/x/client.ts' }, OWN, /\/x\/client\.ts/],
    ["a profile's client module", { toxiproxy: 'embedded' }, [loaded('m', 'reference', './c.ts')], /m\.yaml/],
    ['--shard', { toxiproxy: 'embedded', shard: { index: 1, count: 2 } }, OWN, /--shard/],
    ['--baseline', { toxiproxy: 'embedded', baseline: 'b.json' }, OWN, /--baseline/],
  ];
  for (const [what, flags, profiles, why] of cases) {
    it(`${what}: one at a time, and says why when more were asked for`, () => {
      expect(jobs(flags, profiles)).toEqual({ jobs: 1, said: [] });
      const asked = jobs({ ...flags, jobs: 3 }, profiles);
      expect(asked.jobs).toBe(1);
      expect(asked.said).toHaveLength(1);
      expect(asked.said[0]).toMatch(/^faultline: --jobs 3: one profile at a time, as /);
      expect(asked.said[0]).toMatch(why);
      // The next profile does not set up beside the last one's drain either: it would share the same thing.
      expect(setsUpDuringDrain(flags, profiles)).toBe(false);
    });
  }

  it('a client module named by a profile does not count when a policy replaces it (--policy)', () => {
    expect(jobs({ toxiproxy: 'embedded', policy: 'naive', jobs: 2 }, [loaded('m', 'reference', './c.ts')]).jobs).toBe(
      2,
    );
  });
});
