import { it } from 'vitest';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { formatConsoleSummary } from '../../../src/report/console.ts';
import { allPassSuite } from './suite-fixture.ts';
it('size', () => {
  const run = allPassSuite();
  const md = renderMarkdown(run);
  console.log('MD', Buffer.byteLength(md));
  console.log(formatConsoleSummary(run, { color: false, reportHtml: 'faultline-report/report.html' }));
});
