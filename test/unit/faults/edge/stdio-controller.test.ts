// The client-side stdio edge controller: which requests its rules pick (seeded, per rule), what it leaves alone,
// the hits it counts, and how it tallies what the reader saw.
import { describe, expect, it } from 'vitest';
import { DecisionLog } from '../../../../src/core/decision-log.ts';
import { StdioEdgeController, type StdioRule } from '../../../../src/faults/edge/stdio/controller.ts';

function rule(seed: number, probability: number, over: Partial<StdioRule> = {}): StdioRule {
  return {
    id: 'r1',
    methods: ['tools/call'],
    probability,
    random: new DecisionLog(seed).stream('fault/r1'),
    directive: { kind: 'malformed-line', mode: 'before', text: 'oops' },
    ...over,
  };
}

describe('stdio edge controller', () => {
  it('picks only the methods a rule names, and counts each pick as a hit', () => {
    const controller = new StdioEdgeController();
    controller.add(rule(1, 1));
    expect(controller.pick('initialize', 'k0')).toBeUndefined();
    expect(controller.pick('tools/call', 'k1')).toEqual({ kind: 'malformed-line', mode: 'before', text: 'oops' });
    expect(controller.tally.picked).toEqual({ 'malformed-line': 1 });
    expect(controller.hits.of('r1')).toBe(1);
  });

  it('a rule that matches no request counts no hit (the negative control)', () => {
    const controller = new StdioEdgeController();
    controller.add(rule(1, 1, { methods: ['resources/read'] }));
    for (let i = 0; i < 3; i++) expect(controller.pick('tools/call', `k${i}`)).toBeUndefined();
    expect(controller.hits.of('r1')).toBe(0);
  });

  it('draws from the rule stream: the same seed picks the same requests, removal stops picking', () => {
    const picks = (seed: number) => {
      const controller = new StdioEdgeController();
      controller.add(rule(seed, 0.5));
      const marks = Array.from({ length: 40 }, (_, i) => controller.pick('tools/call', `op-${i}`) !== undefined);
      controller.remove('r1');
      marks.push(...Array.from({ length: 10 }, (_, i) => controller.pick('tools/call', `op-${40 + i}`) !== undefined));
      expect(controller.hits.of('r1')).toBe(marks.filter(Boolean).length);
      return marks;
    };
    const a = picks(7);
    expect(picks(7)).toEqual(a);
    const hits = a.slice(0, 40).filter(Boolean).length;
    expect(hits).toBeGreaterThan(8); // p = 0.5 over 40 draws
    expect(hits).toBeLessThan(32);
    expect(a.slice(40).some(Boolean)).toBe(false);
    expect(picks(8)).not.toEqual(a);
  });

  it('tallies reader errors by cause', () => {
    const controller = new StdioEdgeController();
    controller.noteError(new SyntaxError('Unexpected token d in JSON'));
    controller.noteError(new Error('ReadBuffer exceeded maximum size of 10485760 bytes'));
    controller.noteError(new Error('EPIPE'));
    expect(controller.tally).toMatchObject({
      malformedLines: 1,
      oversizedLines: 1,
      otherErrors: 1,
      otherSample: 'EPIPE',
    });
  });
});
