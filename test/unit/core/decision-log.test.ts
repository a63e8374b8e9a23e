// The decision log's rule (core/decision-log.ts): the hash covers the plan decisions and arrival-order draws;
// keyed draws are in the log but not the hash, and compareKeyed tells a real non-determinism (one key, two
// values) from timing (a key only one run reached).

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeyed, DecisionLog } from '../../../src/core/decision-log.ts';
import { decisionsSha256 } from '../../../src/core/decisions-hash.ts';
import type { DecisionRecord } from '../../../src/core/history.ts';
import { LineSpill } from '../../../src/core/line-spill.ts';

/** A run that plans two ops and reaches the given keys of a fault stream. */
function run(reached: string[], seed = 7) {
  const log = new DecisionLog(seed);
  const workload = log.stream('workload');
  workload.float('tool');
  workload.float('tool');
  const fault = log.stream('deps/fault/f0');
  for (const key of reached) fault.keyed(key).chance('fires', 0.5);
  return log;
}

describe('decision log', () => {
  it('marks keyed draws, and their children, in the log', () => {
    const log = run(['op-00001/attempt-1/request-1']);
    log.stream('deps/fault/f0').keyed('op-00002/attempt-1/request-1').child('latency').int('jitter', 0, 9);
    expect(log.records.map((r) => [r.stream, r.keyed === true])).toEqual([
      ['workload', false],
      ['workload', false],
      ['deps/fault/f0/op-00001/attempt-1/request-1', true],
      ['deps/fault/f0/op-00002/attempt-1/request-1/latency', true],
    ]);
  });

  it('hashes the plan: equal when only the keys reached differ, unequal for another plan', () => {
    const a = run(['op-00001/attempt-1/request-1', 'op-00002/attempt-1/request-1']);
    const b = run(['op-00002/attempt-1/request-1', 'op-00001/attempt-2/request-1']);
    expect(a.sha256()).toBe(b.sha256());
    expect(run([], 8).sha256()).not.toBe(a.sha256());
    // An arrival-order draw (no key) is a plan-level decision: it changes the hash.
    const c = run([]);
    c.stream('deps/fault/f0').chance('fires', 0.5);
    expect(c.sha256()).not.toBe(run([]).sha256());
  });

  it('compares keyed draws key by key: same values where both drew, the rest is timing', () => {
    const a = run(['op-00001/attempt-1/request-1', 'op-00002/attempt-1/request-1']);
    const b = run(['op-00002/attempt-1/request-1', 'op-00003/attempt-1/request-1']);
    const k = compareKeyed(a.records, b.records);
    expect(k.common).toBe(1);
    expect(k.mismatched).toEqual([]);
    expect(k.onlyFirst).toEqual(['deps/fault/f0/op-00001/attempt-1/request-1']);
    expect(k.onlySecond).toEqual(['deps/fault/f0/op-00003/attempt-1/request-1']);
  });

  it('catches one key drawing two values (what arrival-order drawing would do)', () => {
    const a = run(['op-00001/attempt-1/request-1']);
    const b = run([]);
    b.append([{ ...a.records[2], value: !a.records[2].value }]);
    expect(compareKeyed(a.records, b.records).mismatched).toHaveLength(1);
  });
});

/** The hash as defined: every plan decision, stably sorted by stream, one line each. */
function definedSha256(records: readonly DecisionRecord[]): string {
  const hash = createHash('sha256');
  const plan = records.filter((r) => !r.keyed);
  const ordered = plan.sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  for (const r of ordered) hash.update(`${r.stream}\t${r.what}\t${String(r.value)}\n`);
  return hash.digest('hex');
}

describe('the log keeps decisions encoded', () => {
  it('hashes as the definition does: a stable sort by stream, keyed draws left out', () => {
    const drawn: DecisionRecord[] = Array.from({ length: 5_000 }, (_, i) => ({
      stream: i % 4 === 0 ? 'workload' : `workload/op${i % 97}`,
      what: `w${i % 5}`,
      value: i % 3 === 0 ? i / 7 : `v${i}`,
      ...(i % 11 === 0 && { keyed: true as const }),
    }));
    expect(decisionsSha256(drawn)).toBe(definedSha256(drawn));
    // Order inside a stream counts (control): swapping two of its draws changes the hash.
    const swapped = [...drawn];
    [swapped[4], swapped[8]] = [swapped[8], swapped[4]];
    expect(decisionsSha256(swapped)).not.toBe(decisionsSha256(drawn));
  });

  it('hashes the same when its lines are sorted in runs spilled to disk and merged (any run length)', () => {
    const decision = fc.record(
      {
        stream: fc.constantFrom('workload', 'workload/op1', 'workload/op10', 'workload/op2', 'a\tb"c', 'é/\u2028', ''),
        what: fc.constantFrom('arg', 'pick\n"x"', 'tool'),
        value: fc.oneof(fc.double(), fc.integer(), fc.string(), fc.boolean()),
        keyed: fc.constant(true as const),
      },
      { requiredKeys: ['stream', 'what', 'value'] },
    );
    fc.assert(
      fc.property(fc.array(decision, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (drawn, runLines) => {
        expect(decisionsSha256(drawn, runLines)).toBe(definedSha256(drawn));
      }),
      { numRuns: 300 },
    );
  });

  it('hashes the order of a stream across spilled runs: two of its draws swapped across a run boundary change it', () => {
    const drawn: DecisionRecord[] = ['x', 'other', 'y', 'other'].map((value, i) => ({
      stream: value === 'other' ? `s${i}` : 'one',
      what: 'arg',
      value,
    }));
    const swapped = [drawn[2], drawn[1], drawn[0], drawn[3]];
    // Runs of two: 'one' draws x in the first run and y in the second.
    expect(decisionsSha256(drawn, 2)).toBe(definedSha256(drawn));
    expect(decisionsSha256(swapped, 2)).not.toBe(decisionsSha256(drawn, 2));
  });

  for (const where of ['memory', 'spill'] as const)
    it(`gives back every decision as drawn (${where}): strings, numbers, booleans, keyed marks, in order`, () => {
      const log = new DecisionLog(7, where === 'spill' ? new LineSpill('decisions-test') : undefined);
      const drawn = [
        { stream: 'workload', what: 'tool', value: 0.8307884074059774 },
        { stream: 'workload/op2', what: 'arg', value: 4776 },
        { stream: 'a\tb"c', what: 'pick\n', value: 'x\u0000"y' },
        { stream: 'deps/fault/f0/op-1', what: 'fires', value: false, keyed: true as const },
        { stream: 'client', what: 'jitter', value: 1e-7 },
      ];
      log.append(drawn);
      log.stream('late').int('n', 0, 9);
      expect(log.length).toBe(drawn.length + 1);
      expect([...log].slice(0, -1)).toEqual(drawn);
      expect([...log].at(-1)).toMatchObject({ stream: 'late', what: 'n' });
      expect(log.sha256()).toBe(definedSha256([...log]));
    });

  it('keeps order and count across its joined chunks (more than two chunks of lines, odd characters in each)', () => {
    const log = new DecisionLog(7);
    const drawn = Array.from({ length: 9_000 }, (_, i) => ({
      stream: `workload/op${i}`,
      what: i % 3 === 0 ? 'pick\n"x"' : 'arg',
      value: i % 2 === 0 ? i / 7 : `v${i}\u2028`,
    }));
    log.append(drawn);
    expect(log.length).toBe(9_000);
    expect([...log]).toEqual(drawn);
    log.sink({ stream: 'late', what: 'one', value: true });
    expect(log.length).toBe(9_001);
    expect([...log].at(-1)).toEqual({ stream: 'late', what: 'one', value: true });
  });
});
