// Every fault proves it hit: a copy of the shipped dependency-5xx whose faults target an API no op calls (the
// notifications API; the workload only charges and searches) gets the verdict `inert`, naming both windows,
// whatever its thresholds say, because the server's fault engine counted no request answered by them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_OF } from '../../src/measure/run-report.ts';
import { createNetworkBackend } from '../../src/network/index.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { runProfile } from '../../src/run/run-profile.ts';
import { expectVerdict, shippedProfile } from '../helpers/run.ts';

describe('an inert fault', () => {
  it('a dependency fault on an API no op calls makes the verdict inert, naming its windows', async () => {
    const shipped = readFileSync(shippedProfile('dependency-5xx'), 'utf8');
    const copy = shipped
      .replace('name: dependency-5xx', 'name: dependency-5xx-inert')
      .replaceAll('dependency: payments', 'dependency: notifications');
    expect(copy.match(/dependency: notifications/g)).toHaveLength(2);
    const dir = mkdtempSync(join(tmpdir(), 'faultline-inert-'));
    writeFileSync(join(dir, 'inert.yaml'), copy);
    const { report } = await runProfile(loadProfile(join(dir, 'inert.yaml')), {
      signal: new AbortController().signal,
      network: (seed, onDecision) => createNetworkBackend('embedded', { seed, onDecision }),
    });
    const windows = report.metrics.faultWindows;
    expect(windows.map((w) => [w.fault, w.hits, w.mayNotHit])).toEqual([
      ['f0-dependency-status', 0, false],
      ['f1-dependency-commit-then-fail', 0, false],
    ]);
    expect(report.metrics.retriedOps).toBe(0); // nothing failed: the fault never reached the workload
    // Inert on any machine: the hits are counted, and a count is never excused by load.
    expectVerdict(report, 'inert', 'fault windows f0-dependency-status, f1-dependency-commit-then-fail hit nothing');
    expect(EXIT_CODE_OF.inert).toBe(1);
  });
});
