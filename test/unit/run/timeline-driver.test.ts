// The timeline driver on an in-process seam (the MCP-edge fetch middleware, no server): every window is in the
// decision log, so profiles that differ only in a fault's kind, time or parameters never share a hash, while the
// same profile always gives the same one; each window records its seam's hits and a t_off inside the removal call.
import { describe, expect, it } from 'vitest';
import { epochMs } from '../../../src/core/clock.ts';
import { DecisionLog } from '../../../src/core/decision-log.ts';
import type { FaultEnvironment } from '../../../src/faults/context.ts';
import { EdgeController } from '../../../src/faults/edge/http/controller.ts';
import { findFaultKind } from '../../../src/faults/registry.ts';
import type { FaultEntry } from '../../../src/profile/schema.ts';
import { buildTimeline } from '../../../src/profile/timeline.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { TIMELINE_STREAM, TimelineDriver } from '../../../src/run/timeline-driver.ts';
import { DesiredFaultState } from '../../../src/under-test/desired-state.ts';

function entry(kind: string, start: number, stop: number, params: Record<string, unknown>): FaultEntry {
  return { seam: 'edge', kind, start, stop, mayNotHit: false, ...findFaultKind('edge', kind)!.params.parse(params) };
}

async function run(
  faults: FaultEntry[],
  during?: (edge: EdgeController, recorder: Recorder) => Promise<void>,
  durationMs = 60,
) {
  const edge = new EdgeController();
  const env = { edge } as unknown as FaultEnvironment;
  const log = new DecisionLog(7);
  const recorder = new Recorder();
  const driver = new TimelineDriver(faults, env, recorder, log);
  const signal = new AbortController().signal;
  // The run clock (epochMs), as runProfile uses: Date.now() can sit milliseconds apart from it.
  const t0 = epochMs();
  await Promise.all([driver.run(buildTimeline(faults, durationMs), t0, signal), during?.(edge, recorder)]);
  await driver.clear();
  return { log, recorder };
}

const status503 = entry('status', 0, 30, { status: 503 });

describe('timeline driver', () => {
  it('logs each window (fault, on, off at the planned times), even with nothing random in it', async () => {
    const { log } = await run([status503]);
    expect(log.records.filter((r) => r.stream === TIMELINE_STREAM)).toEqual([
      { stream: TIMELINE_STREAM, what: 'f0-edge-status fault', value: expect.stringContaining('"status":503') },
      { stream: TIMELINE_STREAM, what: 'f0-edge-status on', value: 0 },
      { stream: TIMELINE_STREAM, what: 'f0-edge-status off', value: 30 },
    ]);
  });

  it('profiles that differ only in kind, time or a parameter have different decision-log hashes', async () => {
    const hash = async (faults: FaultEntry[]) => (await run(faults)).log.sha256();
    const base = await hash([status503]);
    expect(await hash([status503])).toBe(base); // same profile, same hash
    const others = [
      await hash([entry('header', 0, 30, { header: 'x-a', value: null })]),
      await hash([entry('status', 10, 30, { status: 503 })]),
      await hash([entry('status', 0, 40, { status: 503 })]),
      await hash([entry('status', 0, 30, { status: 500 })]),
    ];
    for (const other of others) expect(other).not.toBe(base);
    expect(new Set(others).size).toBe(others.length);
  });

  it("records each window's hits from its seam", async () => {
    // The call goes out once the window is in place (its t_on recorded), not after a fixed sleep that a stalled
    // machine can stretch past the window's end; the window is wide enough for a loaded event loop.
    const faults = [
      entry('status', 0, 400, { status: 503 }),
      entry('status', 0, 400, { status: 500, methods: ['no/such'] }),
    ];
    const { recorder } = await run(
      faults,
      async (edge, rec) => {
        const fetch = edge.wrap(async () => new Response('{}'));
        while (rec.faults.length < faults.length) await new Promise((r) => setTimeout(r, 1));
        await fetch('http://127.0.0.1:1/mcp', {
          method: 'POST',
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
        });
      },
      500,
    );
    const [hit, inert] = recorder.faults;
    expect(hit).toMatchObject({ id: 'f0-edge-status', hits: 1 });
    expect(inert).toMatchObject({ id: 'f1-edge-status', hits: 0 }); // the negative control: matches nothing
    expect(hit.offMs! - recorder.startMs).toBeGreaterThan(395); // planned at 400 ms (timer tolerance)
  });

  it('t_off is when the server process applied the removal, not when its answer came back', async () => {
    const applied: number[] = [];
    // A server that applies each change 20 ms into the call and answers 60 ms later (a loaded IPC round trip).
    const desired = new DesiredFaultState(async () => {
      await new Promise((r) => setTimeout(r, 20));
      applied.push(epochMs());
      await new Promise((r) => setTimeout(r, 60));
      return applied.at(-1);
    });
    const server = { desired, faultHits: async () => ({ 'f0-dependency-status': 3 }) };
    const env = { server } as unknown as FaultEnvironment;
    const fault: FaultEntry = {
      seam: 'dependency',
      kind: 'status',
      start: 0,
      stop: 10,
      mayNotHit: false,
      ...findFaultKind('dependency', 'status')!.params.parse({ status: 503 }),
    };
    const recorder = new Recorder();
    const driver = new TimelineDriver([fault], env, recorder, new DecisionLog(1));
    await driver.run(buildTimeline([fault], 10), epochMs(), new AbortController().signal);
    await driver.clear();
    const [window] = recorder.faults;
    expect(applied).toHaveLength(2); // on, off
    expect(window.offMs).toBe(applied[1]);
    expect(window.hits).toBe(3);
  });

  it('says the workload may start once the windows that open at 0 are in place, before any later event', async () => {
    const edge = new EdgeController();
    const faults = [entry('status', 0, 40, { status: 503 }), entry('status', 20, 40, { status: 500 })];
    const recorder = new Recorder();
    const driver = new TimelineDriver(faults, { edge } as unknown as FaultEnvironment, recorder, new DecisionLog(7));
    let activeAtStart: string[] | undefined;
    let calls = 0;
    await driver.run(buildTimeline(faults, 60), epochMs(), new AbortController().signal, () => {
      calls++;
      activeAtStart = recorder.faults.map((f) => f.id);
    });
    await driver.clear();
    expect([calls, activeAtStart]).toEqual([1, ['f0-edge-status']]); // once: f0 applied, f1 (at 20 ms) not yet
  });
});

describe('buildTimeline', () => {
  const open = entry('status', 0, 30, { status: 503 });
  const { stop: _, ...noStop } = open;
  it('ends a window without stop at the duration, or (count-bounded workload) leaves it to the end of the run', () => {
    const offs = (untilWorkloadEnds: boolean) =>
      buildTimeline([noStop as FaultEntry, open], 60, untilWorkloadEnds).filter((e) => e.action === 'off');
    expect(offs(false).map((e) => [e.faultId, e.atMs])).toEqual([
      ['f1-edge-status', 30],
      ['f0-edge-status', 60],
    ]);
    expect(offs(true).map((e) => [e.faultId, e.atMs])).toEqual([['f1-edge-status', 30]]);
  });
});
