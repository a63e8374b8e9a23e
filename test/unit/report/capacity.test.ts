// The capacity section of report.html and summary.md: an n/a point is left out of the chart (never drawn at 0),
// the knee is marked only when there is one, notes and the rule are printed.
import { describe, expect, it } from 'vitest';
import { buildCapacityReview } from '../../../src/measure/capacity.ts';
import { buildProfileReport } from '../../../src/measure/verdict.ts';
import { capacityHtml, capacityMarkdown } from '../../../src/report/capacity-table.ts';
import { history, series } from '../measure/fixtures.ts';

const report = (name: string, count: number, dur: number) =>
  buildProfileReport({
    name,
    seed: 1,
    policy: 'resilient',
    history: history({ ops: series(name, 0, count, 100, ['ok'], dur) }),
    expect: [],
    decisionLogSha256: 'x',
  });

describe('capacity report section', () => {
  it('leaves an n/a point out of both charts and marks the knee', () => {
    const review = buildCapacityReview({
      profile: 'p',
      mode: 'concurrency',
      levels: [
        { level: 1, control: report('c1', 10, 10), faulted: report('f1', 0, 10) },
        { level: 4, control: report('c4', 10, 10), faulted: report('f4', 10, 50) },
      ],
    });
    const html = capacityHtml(review);
    expect(html.match(/class="point-control"/g)).toHaveLength(4);
    expect(html.match(/class="point-faulted"/g)).toHaveLength(2);
    expect(html.match(/class="knee"/g)).toHaveLength(2);
    expect(html).toContain('knee at 4 ops in flight');
    expect(html).not.toMatch(/<script/i);
    const md = capacityMarkdown(review).join('\n');
    expect(md).toContain('| 1 | faulted | 0 | n/a | n/a | n/a | n/a | n/a | 0 / 0 / 0 | pass | n/a |');
    expect(md).toContain('Rule: knee = the lowest level');
  });

  it('draws no knee line when none was found', () => {
    const review = buildCapacityReview({
      profile: 'p',
      mode: 'rate',
      levels: [{ level: 10, control: report('c', 10, 10), faulted: report('f', 10, 11) }],
    });
    expect(capacityHtml(review)).not.toContain('class="knee"');
    expect(capacityHtml(review)).toContain('no knee found at the levels tried (10 ops/s offered)');
  });
});
