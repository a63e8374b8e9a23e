// The plan is a value of profile and seed: the same seed gives the same timeline and ops, another seed other
// ops, op i is the same however the ops are drawn, and `faultline plan` prints it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planView, renderPlan } from '../../../src/cli/plan-command.ts';
import type { DecisionRecord } from '../../../src/core/history.ts';
import { buildPlan } from '../../../src/plan/plan.ts';
import { loadProfile, parseProfile } from '../../../src/profile/load.ts';

const shipped = (name: string) =>
  loadProfile(fileURLToPath(new URL(`../../../chaos-profiles/${name}.yaml`, import.meta.url))).profile;

const closedText = `name: closed
description: a closed-model workload
duration: 2s
workload:
  concurrency: 4
  mix:
    - tool: create_payment
      args: { customer_id: "cus_{op}", amount_cents: { int: [1, 100] }, currency: { pick: [USD, EUR] } }
    - tool: search_documents
      args: { query: { pick: [a, b, c] } }
  mistakes: { share: 0.5 }
`;
const closed = parseProfile('closed.yaml', closedText).profile;

describe('buildPlan', () => {
  it('gives the same plan for the same seed', () => {
    const profile = shipped('dependency-502');
    const a = buildPlan(profile, 7);
    const b = buildPlan(profile, 7);
    expect(a.timeline).toEqual(b.timeline);
    expect(a.ops.first()).toEqual(b.ops.first());
    expect(a.ops.count).toBe(Math.ceil((profile.duration * profile.workload.rate!) / 1000));
    expect(a.ops.first()).toHaveLength(a.ops.count!);
  });

  it('gives other ops for another seed, on the same timeline', () => {
    const profile = shipped('dependency-502');
    const a = buildPlan(profile, 7);
    const b = buildPlan(profile, 8);
    expect(a.ops.first().map((o) => o.args)).not.toEqual(b.ops.first().map((o) => o.args));
    expect(a.ops.first().map((o) => o.atMs)).toEqual(b.ops.first().map((o) => o.atMs));
    expect(a.timeline).toEqual(b.timeline);
  });

  it("puts each fault's time window on the timeline, in ms from the workload start", () => {
    const profile = shipped('network-reset');
    const events = buildPlan(profile, 1).timeline.map((e) => [e.atMs, e.action, e.faultIndex]);
    const windows = profile.faults.flatMap((f, i) => [
      [f.start, 'on', i],
      [f.stop ?? profile.duration, 'off', i],
    ]);
    expect(events).toHaveLength(profile.faults.length * 2);
    expect(new Set(events.map((e) => JSON.stringify(e)))).toEqual(new Set(windows.map((w) => JSON.stringify(w))));
    expect(events.map((e) => e[0])).toEqual([...events.map((e) => e[0])].sort((x, y) => Number(x) - Number(y)));
  });

  it('draws closed-model op i the same whatever order the ops are asked for in', () => {
    const inOrder = buildPlan(closed, 3).ops;
    const skipping = buildPlan(closed, 3).ops;
    const late = skipping.at(40);
    expect(inOrder.count).toBeUndefined();
    expect(inOrder.first(41)[40]).toEqual(late);
    expect(skipping.at(40)).toEqual(late);
    expect(late.atMs).toBeUndefined();
  });

  it('forgets a closed-model op once handed out; asked again, it is drawn again the same and logged once', () => {
    const drawn: DecisionRecord[] = [];
    const ops = buildPlan(closed, 5, (d) => drawn.push(d)).ops;
    const handedOut = Array.from({ length: 50 }, (_, i) => ops.at(i));
    const logged = drawn.length;
    expect(drawn.filter((d) => d.stream === 'workload' && d.what === 'tool')).toHaveLength(50);
    expect(ops.first(50)).toEqual(handedOut);
    expect(ops.at(7)).toEqual(handedOut[7]);
    expect(ops.at(50)).toEqual(buildPlan(closed, 5).ops.first(51)[50]);
    expect(drawn.filter((d) => d.stream === 'workload' && d.what === 'tool')).toHaveLength(51);
    expect(drawn.length).toBeGreaterThan(logged);
  });

  it('plans the model mistakes from the seed: a share of ops, each naming its kind and its wrong call', () => {
    const ops = buildPlan(closed, 3).ops.first(200);
    const mistaken = ops.filter((o) => o.mistake);
    expect(mistaken.length).toBeGreaterThan(60);
    expect(mistaken.length).toBeLessThan(140);
    for (const op of mistaken)
      expect(op.mistake!.tool !== op.tool || JSON.stringify(op.mistake!.args) !== JSON.stringify(op.args)).toBe(true);
    expect(
      buildPlan(shipped('baseline'), 3)
        .ops.first()
        .filter((o) => o.mistake),
    ).toEqual([]);
  });

  it('hands every draw to the decision sink: all ops up front for the open model, op by op for the closed one', () => {
    const open: DecisionRecord[] = [];
    const plan = buildPlan(shipped('baseline'), 7, (d) => open.push(d));
    expect(open.filter((d) => d.stream === 'workload' && d.what === 'tool')).toHaveLength(plan.ops.count!);
    const drawn: DecisionRecord[] = [];
    const lazy = buildPlan(closed, 7, (d) => drawn.push(d));
    expect(drawn).toEqual([]);
    lazy.ops.at(9);
    expect(drawn.filter((d) => d.stream === 'workload' && d.what === 'tool')).toHaveLength(10);
  });
});

describe('faultline plan', () => {
  it('renders the op windows and the ops with tool and arguments', () => {
    const profile = shipped('dependency-502');
    const text = renderPlan(planView(profile, buildPlan(profile, 7), 3));
    const lines = text.split('\n');
    expect(lines[0]).toBe(`plan of dependency-502 (seed 7): open model, 50 ops at 20/s over 2500 ms`);
    expect(text).toContain('fault timeline (ms from the workload start)');
    expect(text).toContain('op windows (by op index, both ends included)');
    expect(lines.filter((l) => /^ {2}10\.\.29 +first 2 +per-request +f\d-dependency-/.test(l))).toHaveLength(2);
    expect(text).toContain('ops (3 of 50)');
    expect(
      lines.filter((l) => /^ {2}op-0000\d +\d+ +(create_payment|get_payment_status|search_documents)/.test(l)),
    ).toHaveLength(3);
  });

  it('lists the first ops of a closed model and says its count is open', () => {
    const view = planView(closed, buildPlan(closed, 1));
    expect(view.workload).toEqual({ model: 'closed', concurrency: 4, ops: null });
    expect(view.ops).toHaveLength(20);
    expect(renderPlan(view)).toMatch(/closed model, 4 in flight for 2000 ms/);
  });

  it('a closed model bounded by `ops` says it runs exactly that many; `ops` with the open model is refused', () => {
    const capped = parseProfile(
      'capped.yaml',
      closedText.replace('  concurrency: 4', '  concurrency: 1\n  ops: 5'),
    ).profile;
    const view = planView(capped, buildPlan(capped, 1));
    expect(view.workload).toEqual({ model: 'closed', concurrency: 1, ops: 5 });
    expect(view.ops).toHaveLength(5);
    expect(renderPlan(view)).toMatch(/closed model, exactly 5 ops, 1 in flight/);
    expect(renderPlan(view)).toContain('ops (5 of 5)');
    expect(() => parseProfile('open.yaml', closedText.replace('  concurrency: 4', '  rate: 4\n  ops: 5'))).toThrow(
      /workload\.ops.*use it with concurrency, not rate/,
    );
  });
});
