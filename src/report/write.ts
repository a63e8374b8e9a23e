// Writes every report file into the output directory: report.json first (the one the CLI contract and
// `faultline replay` depend on), then junit.xml, report.html, summary.md, trace.jsonl, and history.jsonl (the
// recorded histories, from which `faultline report` renders all of them again). One of each whatever the run's
// pairings: a profile that ran in several is in each file once per pairing.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { History } from '../core/history.ts';
import type { RunReport } from '../measure/run-report.ts';
import { HISTORY_FILE, historyChunks } from './history-file.ts';
import { htmlPieces } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { traceLines } from './trace.ts';
import { writeChunks } from './write-chunks.ts';

export const REPORT_FILES = [
  'report.json',
  'junit.xml',
  'report.html',
  'summary.md',
  'trace.jsonl',
  HISTORY_FILE,
] as const;
export type ReportFile = (typeof REPORT_FILES)[number];

export interface WriteOptions {
  /** Write only these files (default: all). `faultline report` leaves report.json and history.jsonl as they are. */
  only?: readonly ReportFile[];
}

/** Returns the paths written, in order. `histories` is keyed as core/history-key.ts says. */
export async function writeReports(
  outDir: string,
  run: RunReport,
  histories: Record<string, History>,
  options: WriteOptions = {},
): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const reportPath = join(outDir, 'report.json');
  // The files that grow with the run's length are written piece by piece, never held whole (report.html's pieces are
  // its profiles' passes over the records: write-chunks.ts lets the event loop run between them).
  const renderers: Record<ReportFile, () => string | Iterable<string>> = {
    'report.json': () => renderJson(run),
    'junit.xml': () => renderJunit(run, { reportPath }),
    'report.html': () => htmlPieces(run, histories, { reportPath }),
    'summary.md': () => renderMarkdown(run, { histories, reportPath }),
    'trace.jsonl': () => traceLines(histories, run),
    [HISTORY_FILE]: () => historyChunks(histories),
  };
  const written: string[] = [];
  for (const name of options.only ?? REPORT_FILES) {
    const path = join(outDir, name);
    const content = renderers[name]();
    await (typeof content === 'string' ? writeFile(path, content, 'utf8') : writeChunks(path, content));
    written.push(path);
  }
  return written;
}
