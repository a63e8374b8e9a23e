// The start-up calibration on the wire: a pair made really slow (a 700 ms latency toxic on the MCP proxy, added
// when the proxy is created, so the calibration pings and every op pay it) is judged inconclusive, exit 3, with
// the calibration's reason, although its time bound failed: a loaded machine is not a regression. The negative
// control is the same profile without the toxic: a normal calibration, no margin worth the name, a plain pass.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOAD_SHARE } from '../../src/measure/calibration.ts';
import { EXIT_CODE_OF } from '../../src/measure/run-report.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';

const PROFILE = `
name: calibration-probe
description: a short read-only workload with a time bound and one dependency fault window
seed: 7
duration: 2s
client: { policy: resilient, attemptTimeoutMs: 2000, deadlineMs: 6000 }
workload:
  rate: 8
  mix:
    - tool: search_documents
      args: { query: invoice }
faults:
  - { seam: dependency, kind: status, dependency: search, status: 503, start: 0.5s, stop: 1.2s }
expect:
  - latency_p50_ms < 600
  - duplicate_effects == 0
`;
const TOXIC_LATENCY_MS = 700;

async function run(slow: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-calibration-'));
  writeFileSync(join(dir, 'probe.yaml'), PROFILE);
  return runProfile(loadProfile(join(dir, 'probe.yaml')), {
    signal: new AbortController().signal,
    network: async (seed, onDecision) => {
      const backend = await createNetworkBackend('embedded', { seed, onDecision });
      if (!slow) return backend;
      const createProxy = backend.createProxy.bind(backend);
      backend.createProxy = async (name, upstream) => {
        const endpoint = await createProxy(name, upstream);
        await backend.api.addToxic(name, { type: 'latency', attributes: { latency: TOXIC_LATENCY_MS, jitter: 0 } });
        return endpoint;
      };
      return backend;
    },
  });
}

describe('the start-up calibration', () => {
  it('a pair slowed on the wire makes the verdict inconclusive (exit 3), not a false fail', async () => {
    const { report } = await run(true);
    const c = report.calibration!;
    expect(c.calls).toBe(20);
    // Every ping crossed the toxic: the calibration measured the slowness, nobody told it.
    expect(c.p50Ms).toBeGreaterThanOrEqual(TOXIC_LATENCY_MS);
    expect(c.p95Ms).toBeGreaterThan(LOAD_SHARE * 2000);
    expect(c.tooLoaded).toMatch(/over 25% of the client's attempt timeout \(2000 ms\)/);
    // The time bound really failed on this pair: without the calibration this would be a fail.
    const bound = report.thresholds.find((t) => t.metric === 'latency_p50_ms')!;
    expect(bound.actual).toBeGreaterThan(bound.target);
    expect(report.verdict).toBe('inconclusive');
    expect(report.verdictReason).toBe(c.tooLoaded);
    expect(EXIT_CODE_OF[report.verdict]).toBe(3);
  }, 60_000);

  it('negative control: a normal calibration leaves the verdict to the thresholds', async () => {
    const { report } = await run(false);
    const c = report.calibration!;
    expect(c.calls).toBe(20);
    expect(c.p95Ms).toBeLessThan(LOAD_SHARE * 2000);
    expect(c.tooLoaded).toBeUndefined();
    expect(report.metrics.faultWindows[0].hits).toBeGreaterThan(0);
    expect(report.verdict).toBe('pass');
  }, 60_000);
});
