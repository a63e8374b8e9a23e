// The MCP link: through a Toxiproxy proxy when the profile has network faults, straight to the server when it has
// none (a proxy with no toxic would only forward), and a control keeps the link of the profile it is compared with.
// Each run lists the embedded Toxiproxy's proxies as its workload starts, and checks its ops got through.
import { describe, expect, it } from 'vitest';
import type { NetworkBackend } from '../../src/network/backend.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { type LoadedProfile, parseProfile } from '../../src/profile/load.ts';
import { withoutFaults } from '../../src/run/faults-off.ts';
import { capacityRuns } from '../../src/run/run-capacity.ts';
import { runProfile } from '../../src/run/run-profile.ts';

function profile(name: string, faults: string[]): LoadedProfile {
  return parseProfile(
    `${name}.yaml`,
    [
      `name: ${name}`,
      'description: a short run, to see which link it had',
      'seed: 3',
      'duration: 600ms',
      'workload:',
      '  rate: 10',
      '  mix:',
      '    - tool: search_documents',
      '      args: { query: invoice }',
      ...(faults.length > 0 ? ['faults:', ...faults] : []),
    ].join('\n'),
  );
}

const latencyOnLink = ['  - { seam: network, kind: latency, latency: 5, start: 0s, stop: 300ms }'];
const dependencyOnly = ['  - { seam: dependency, kind: latency, dependency: search, ms: 5, start: 0s, stop: 300ms }'];

/** Runs the profile; the proxies the embedded Toxiproxy had as the workload started. */
async function proxiesDuringWorkload(loaded: LoadedProfile): Promise<{ proxies: string[]; okOps: number }> {
  let backend: NetworkBackend | undefined;
  let listed: Promise<string[]> | undefined;
  const { report } = await runProfile(loaded, {
    signal: new AbortController().signal,
    network: async (seed, onDecision) => {
      backend = await createNetworkBackend('embedded', { seed, onDecision });
      return backend;
    },
    onPhase: (phase) => {
      if (phase === 'workload') listed = backend!.api.listProxies().then(Object.keys);
    },
  });
  return { proxies: (await listed) ?? ['(never listed)'], okOps: report.metrics.opsOk };
}

describe.concurrent('the MCP link', () => {
  it('a profile with a network fault runs through a proxy', async () => {
    const run = await proxiesDuringWorkload(profile('on-link', latencyOnLink));
    expect(run.proxies).toEqual(['mcp-on-link']);
    expect(run.okOps).toBeGreaterThan(0);
  });

  it('a profile with no network fault talks to the server straight', async () => {
    const run = await proxiesDuringWorkload(profile('off-link', dependencyOnly));
    expect(run.proxies).toEqual([]);
    expect(run.okOps).toBeGreaterThan(0);
  });

  it("the faults-off control of a profile with a network fault keeps its profile's proxy", async () => {
    const control = withoutFaults(profile('control', latencyOnLink));
    expect(control.profile.faults).toEqual([]);
    const run = await proxiesDuringWorkload(control);
    expect(run.proxies).toEqual(['mcp-control']);
    expect(run.okOps).toBeGreaterThan(0);
  });

  it('the faults-off control of a profile without one has no proxy either', async () => {
    const run = await proxiesDuringWorkload(withoutFaults(profile('plain-control', dependencyOnly)));
    expect(run.proxies).toEqual([]);
  });
});

describe("a capacity review's no-fault runs", () => {
  it("keep their profile's link: proxied beside network faults, straight otherwise", () => {
    const linkOf = (loaded: LoadedProfile) =>
      capacityRuns(loaded, 'concurrency', [1, 4]).map((l) => [l.control.proxiedLink, l.faulted.proxiedLink]);
    expect(linkOf(profile('on-link', latencyOnLink))).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    expect(linkOf(profile('off-link', dependencyOnly))).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });
});
