import { describe, expect, it } from 'vitest';
import { DecisionLog } from '../../../src/core/decision-log.ts';
import { RandomStream } from '../../../src/core/random.ts';
import { buildTimeline } from '../../../src/profile/timeline.ts';

const draws = (seed: number, name = 's') => {
  const r = new RandomStream(seed, name);
  return Array.from({ length: 5 }, () => r.float('x'));
};

describe('seeded random streams', () => {
  it('same seed and name replay the same draws', () => {
    expect(draws(7)).toEqual(draws(7));
  });

  it('different seeds differ, including single-digit ones', () => {
    for (let a = 0; a < 10; a++) for (let b = a + 1; b < 10; b++) expect(draws(a)).not.toEqual(draws(b));
  });

  it('streams are independent by name', () => {
    expect(draws(7, 'client')).not.toEqual(draws(7, 'workload'));
  });

  it('the decision log hash ignores how concurrent streams interleave, not what they drew', () => {
    const a = new DecisionLog(3);
    const b = new DecisionLog(3);
    const [a1, a2, b1, b2] = [a.stream('one'), a.stream('two'), b.stream('one'), b.stream('two')];
    a1.float('x');
    a2.float('x');
    b2.float('x');
    b1.float('x');
    expect(a.sha256()).toBe(b.sha256());
    a1.float('x');
    expect(a.sha256()).not.toBe(b.sha256());
  });
});

describe('fault timeline', () => {
  it('orders events, closes open windows at the end, and removes before adding at equal times', () => {
    const events = buildTimeline(
      [
        { seam: 'dependency', kind: 'status', start: 1000, stop: 2000 },
        { seam: 'network', kind: 'latency', start: 2000 },
      ],
      5000,
    );
    expect(events.map((e) => `${e.atMs}:${e.action}:${e.faultIndex}`)).toEqual([
      '1000:on:0',
      '2000:off:0',
      '2000:on:1',
      '5000:off:1',
    ]);
  });
});
