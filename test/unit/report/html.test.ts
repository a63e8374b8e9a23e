import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../../src/report/html.ts';
import { sampleHistories, sampleRun } from './fixtures.ts';

describe('renderHtml', () => {
  const html = renderHtml(sampleRun(), sampleHistories());

  it('shows the verdict of the run and each profile', () => {
    expect(html).toContain('Faultline <span class="verdict fail">FAIL</span>');
    expect(html).toContain('<h2>good <span class="verdict pass">PASS</span></h2>');
    expect(html).toContain('<span class="verdict fail">FAIL</span></h2>');
  });

  it('is self-contained', () => {
    expect(html).not.toMatch(/<script|<link|\bsrc=|href="(https?:)?\/\//i);
    expect(html).toMatch(/^<!doctype html>/);
  });

  it('escapes names and messages', () => {
    expect(html).not.toContain(`pay<&>`);
    expect(html).toContain('pay&lt;&amp;&gt;&quot;&#39;|x');
  });

  it('draws a timeline with ops by outcome and shaded fault windows', () => {
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain('class="fault"');
    expect(html).toContain('class="op-ok"');
    expect(html).toContain('class="op-fail"');
    expect(html).toContain('class="recovered"');
  });

  it('lists thresholds, metrics and recovery per window', () => {
    expect(html).toContain('<code>retry_success_rate &gt;= 0.99</code>');
    expect(html).toContain('expected duplicate_effects == 0, actual 1');
    expect(html).toContain('<th><code>duplicate_effects</code></th><td>1</td>');
    expect(html).toContain('not recovered');
  });
});
