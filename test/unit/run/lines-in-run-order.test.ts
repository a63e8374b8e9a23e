// Runs that overlap (the next one sets up while the last drains) still print their lines in run order.
import { describe, expect, it } from 'vitest';
import { LinesInRunOrder } from '../../../src/run/lines-in-run-order.ts';

describe('LinesInRunOrder', () => {
  it("holds a run's lines until every run before it ended, then says them as they come", () => {
    const out: string[] = [];
    const order = new LinesInRunOrder((line) => out.push(line));
    order.of(0)('0 starts');
    order.of(1)('1 starts'); // run 0 is still draining
    order.of(2)('2 starts');
    expect(out).toEqual(['0 starts']);
    order.of(0)('0 passed');
    order.end(0);
    expect(out).toEqual(['0 starts', '0 passed', '1 starts']);
    order.of(1)('1 passed');
    expect(out.at(-1)).toBe('1 passed');
    // Run 2 ends before run 1: its lines wait for run 1, then come out in the order it said them.
    order.of(2)('2 passed');
    order.end(2);
    expect(out).toEqual(['0 starts', '0 passed', '1 starts', '1 passed']);
    order.end(1);
    expect(out).toEqual(['0 starts', '0 passed', '1 starts', '1 passed', '2 starts', '2 passed']);
  });

  it('says every line at once when runs never overlap', () => {
    const out: string[] = [];
    const order = new LinesInRunOrder((line) => out.push(line));
    for (let run = 0; run < 3; run++) {
      order.of(run)(`${run}`);
      expect(out).toEqual(Array.from({ length: run + 1 }, (_, i) => `${i}`));
      order.end(run);
    }
  });
});
