import { describe, expect, it } from 'vitest';
import { renderTimelineSvg } from '../../../src/report/timeline.ts';
import { fault, history, op, T0 } from '../measure/fixtures.ts';
import { checkXml } from './xml-check.ts';

describe('renderTimelineSvg', () => {
  const h = history({
    endMs: T0 + 1000,
    faults: [fault('a', 500, 750), fault('b', 500, undefined)],
    ops: [op('1', 0, 10), op('2', 10, 20, 'fail'), op('3', 600, 700, 'info'), op('4', 990, 999)],
  });
  const svg = renderTimelineSvg(h, [], { width: 446, bins: 4 }); // plot: 400 wide from x=36

  it('is well-formed SVG', () => {
    expect(checkXml(svg)).toEqual([]);
  });

  it('stacks ops per bin by outcome with a title per count', () => {
    expect(svg.match(/class="op-ok"/g)).toHaveLength(2);
    expect(svg.match(/class="op-fail"/g)).toHaveLength(1);
    expect(svg.match(/class="op-info"/g)).toHaveLength(1);
    expect(svg).toContain('<title>1 fail</title>');
  });

  it('shades each fault window over its span, to the end of the run when never removed', () => {
    const rects = [...svg.matchAll(/<rect class="fault" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)];
    expect(rects.map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [236, 100],
      [236, 200],
    ]);
  });

  it('puts overlapping fault labels on separate rows', () => {
    const ys = [...svg.matchAll(/<text x="238" y="(\d+)"/g)].map((m) => m[1]);
    expect(ys).toEqual(['14', '26']);
  });
});
