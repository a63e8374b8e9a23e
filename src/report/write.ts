// Writes every report file into the output directory: report.json first (the one the CLI contract and
// `faultline replay` depend on), then junit.xml, report.html, summary.md, trace.jsonl.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { History } from '../core/history.ts';
import type { RunReport } from '../measure/run-report.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { renderTrace } from './trace.ts';

export const REPORT_FILES = ['report.json', 'junit.xml', 'report.html', 'summary.md', 'trace.jsonl'] as const;

/** Returns the paths written, in order. `histories` is keyed by profile name. */
export async function writeReports(
  outDir: string,
  run: RunReport,
  histories: Record<string, History>,
): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const renderers: Record<(typeof REPORT_FILES)[number], () => string> = {
    'report.json': () => renderJson(run),
    'junit.xml': () => renderJunit(run),
    'report.html': () => renderHtml(run, histories),
    'summary.md': () => renderMarkdown(run),
    'trace.jsonl': () => renderTrace(histories),
  };
  const written: string[] = [];
  for (const name of REPORT_FILES) {
    const path = join(outDir, name);
    await writeFile(path, renderers[name](), 'utf8');
    written.push(path);
  }
  return written;
}
