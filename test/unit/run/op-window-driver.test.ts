// Op windows in the timeline driver: a per-request window (dependency) is in place before the first op, scoped to its
// ops, and on the report from its first op's issue to the issue of the first op past it; a progress window (server)
// is applied as its first op is issued and removed once its last op has ended. Both are logged by op index, so the
// decision log is the same however the ops interleave.
import { describe, expect, it } from 'vitest';
import type { ControlRequest } from '../../../src/control/control.ts';
import { epochMs } from '../../../src/core/clock.ts';
import { DecisionLog } from '../../../src/core/decision-log.ts';
import type { FaultEnvironment } from '../../../src/faults/context.ts';
import { findFaultKind } from '../../../src/faults/registry.ts';
import { planOpWindows } from '../../../src/plan/op-windows.ts';
import type { FaultEntry } from '../../../src/profile/schema.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { TIMELINE_STREAM, TimelineDriver } from '../../../src/run/timeline-driver.ts';
import { DesiredFaultState } from '../../../src/under-test/desired-state.ts';

function entry(seam: 'dependency' | 'server', kind: string, window: Partial<FaultEntry>, params = {}): FaultEntry {
  return { seam, kind, mayNotHit: false, ...window, ...findFaultKind(seam, kind)!.params.parse(params) };
}

function harness(faults: FaultEntry[], opCount = 10) {
  const pushed: ControlRequest[] = [];
  const desired = new DesiredFaultState(async (request) => {
    pushed.push(structuredClone(request));
    return undefined;
  });
  const env = { server: { desired, faultHits: async () => ({}) } } as unknown as FaultEnvironment;
  const recorder = new Recorder();
  const log = new DecisionLog(1);
  const driver = new TimelineDriver(faults, env, recorder, log, planOpWindows(faults, opCount));
  return { driver, recorder, log, pushed };
}

const dependency503 = entry('dependency', 'status', { fromOp: 2, toOp: 4, firstAttempts: 2 }, { status: 503 });
const evict = entry('server', 'evict-sessions', { fromOp: 2, toOp: 3 });

describe('op windows in the timeline driver', () => {
  it('puts a per-request window in place before the first op, scoped to its ops, and reports it from op 2 to op 5', async () => {
    const { driver, recorder, pushed } = harness([dependency503]);
    await driver.run([], epochMs(), new AbortController().signal);
    expect(pushed).toEqual([
      { op: 'setDependencyFaults', input: [expect.objectContaining({ ops: { from: 2, to: 4, firstAttempts: 2 } })] },
    ]);
    expect(recorder.faults).toHaveLength(0); // not on the report before its first op
    for (const i of [0, 1]) await driver.opIssued(i);
    expect(recorder.faults).toHaveLength(0);
    await driver.opIssued(2);
    expect(recorder.faults[0]).toMatchObject({
      window: { kind: 'ops', fromOp: 2, toOp: 4, firstAttempts: 2, scope: 'per-request' },
    });
    for (const i of [3, 4]) await driver.opIssued(i);
    expect(recorder.faults[0].offMs).toBeUndefined();
    await driver.opIssued(5);
    expect(recorder.faults[0].offMs).toBeDefined();
    await driver.clear();
  });

  it('applies a progress window as its first op is issued and removes it once every op of it has ended', async () => {
    const { driver, recorder, pushed } = harness([evict]);
    await driver.run([], epochMs(), new AbortController().signal);
    expect(pushed).toHaveLength(0);
    await driver.opIssued(2);
    expect(pushed).toHaveLength(1);
    expect(recorder.faults[0].window).toEqual({ kind: 'ops', fromOp: 2, toOp: 3, scope: 'progress' });
    await driver.opIssued(3);
    driver.opEnded(3);
    await driver.opIssued(4); // issued past the window, but op 2 is still running: it stays
    expect(pushed).toHaveLength(1);
    driver.opEnded(2);
    await driver.clear();
    expect(pushed).toEqual([
      { op: 'setBehaviour', input: [expect.objectContaining({ kind: 'evict-sessions' })] },
      { op: 'setBehaviour', input: [] },
    ]);
    expect(recorder.faults[0].offMs).toBeDefined();
  });

  it('logs op windows by op index when the run starts, whatever happens after', async () => {
    const { driver, log } = harness([dependency503]);
    await driver.run([], epochMs(), new AbortController().signal);
    expect(log.records.filter((r) => r.stream === TIMELINE_STREAM)).toEqual([
      { stream: TIMELINE_STREAM, what: 'f0-dependency-status fault', value: expect.stringContaining('"status":503') },
      { stream: TIMELINE_STREAM, what: 'f0-dependency-status on', value: 'op 2' },
      { stream: TIMELINE_STREAM, what: 'f0-dependency-status off', value: 'op 4' },
      { stream: TIMELINE_STREAM, what: 'f0-dependency-status attempts', value: 2 },
    ]);
    await driver.clear();
  });

  it("a shard that runs none of the window's ops never opens it", async () => {
    const pushed: unknown[] = [];
    const desired = new DesiredFaultState(async (r) => {
      pushed.push(r);
      return undefined;
    });
    const env = { server: { desired, faultHits: async () => ({}) } } as unknown as FaultEnvironment;
    const recorder = new Recorder();
    const faults = [entry('dependency', 'status', { fromOp: 3, toOp: 3 }, { status: 503 })];
    const driver = new TimelineDriver(
      faults,
      env,
      recorder,
      new DecisionLog(1),
      planOpWindows(faults, 10),
      (i) => i % 2 === 0,
    );
    await driver.run([], epochMs(), new AbortController().signal);
    for (const i of [0, 2, 4]) await driver.opIssued(i);
    await driver.clear();
    expect(pushed).toHaveLength(0);
    expect(recorder.faults).toHaveLength(0);
  });
});
