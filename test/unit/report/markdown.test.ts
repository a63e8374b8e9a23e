import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { sampleRun } from './fixtures.ts';

describe('renderMarkdown', () => {
  const md = renderMarkdown(sampleRun());
  const lines = md.split('\n');

  it('heads with the run verdict', () => {
    expect(lines[0]).toBe('## ❌ Faultline fail: 1 of 2 profile(s) passed');
  });

  it('has a metric table per profile with the numbers', () => {
    expect(md).toContain('### ✅ good: pass');
    expect(md).toContain('| metric | value |');
    expect(md).toContain('| `ops` | 41 |');
    expect(md).toContain('| `duplicate_effects` | 1 |');
    expect(md).toContain('| `ghost_effects` | 1 |');
  });

  it('marks each threshold and spells out failures', () => {
    expect(md).toContain('| ✅ | `duplicate_effects == 0` | 0 |');
    expect(md).toContain('| ❌ | `duplicate_effects == 0` | expected duplicate_effects == 0, actual 1 |');
  });

  it('keeps every table row intact when names hold pipes', () => {
    for (const row of lines.filter((l) => l.startsWith('|'))) {
      const cells = row.replace(/\\\|/g, '').split('|').length - 2;
      const header = lines[lines.indexOf(row) - 1];
      if (header?.startsWith('|')) {
        expect(cells, row).toBe(header.replace(/\\\|/g, '').split('|').length - 2);
      }
    }
    expect(md).toContain('### ❌ pay&lt;&amp;&gt;"\'\\|x: fail');
    expect(md).toContain('| `recovery_ms <= 2000` |');
    expect(md).not.toMatch(/<peer>/);
  });
});
