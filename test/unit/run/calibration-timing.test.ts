// Which fault windows the start-up calibration is judged against (run/calibrate.ts timingOf).
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../src/profile/load.ts';
import { timingOf } from '../../../src/run/calibrate.ts';

const profile = (faults: string) =>
  parseProfile(
    'p.yaml',
    `name: p
description: calibration timing
duration: 3s
target: { kind: reference }
workload:
  rate: 5
  mix:
    - { tool: search_documents, args: { query: x } }
faults:
${faults}
expect:
  - ops >= 1
`,
  ).profile;

describe('calibration timing', () => {
  it('skips a crash window: the kill is the hit, no call has to cross the window', () => {
    const crashOnly = profile('  - { seam: server, kind: crash, start: 1s, stop: 1100ms }');
    expect(timingOf(crashOnly, 2000)).toEqual({ attemptTimeoutMs: 2000 });
  });

  it('keeps the shortest window that calls must cross (negative control: a 100 ms latency window counts)', () => {
    const both = profile(`  - { seam: server, kind: crash, start: 1s, stop: 1100ms }
  - { seam: network, kind: latency, latency: 50, start: 1s, stop: 1100ms }
  - { seam: network, kind: latency, latency: 50, start: 2s, stop: 2500ms }`);
    expect(timingOf(both, 2000)).toEqual({ attemptTimeoutMs: 2000, shortestWindowMs: 100 });
  });
});
