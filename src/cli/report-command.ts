// faultline report RUN_DIR: renders every report again from report.json and history.jsonl (after an upgrade of
// Faultline, or to compare and merge runs later).
import { resolve } from 'node:path';
import { type ReportFile, writeReports } from '../report/write.ts';
import { writtenFiles } from './out-dir.ts';
import { readHistories, readRun } from './read-run.ts';
import { EXIT } from './user-error.ts';

export async function reportCommand(target: string, flags: { out?: string }): Promise<number> {
  const { dir, run } = readRun(target);
  const histories = readHistories(dir);
  const out = flags.out ?? dir;
  const inPlace = resolve(out) === resolve(dir);
  if (!histories) {
    process.stderr.write(
      `faultline: ${dir}: no history.jsonl, so no timeline or trace: rendering from report.json alone (trace.jsonl left as it is)\n`,
    );
  }
  const only: ReportFile[] = [
    ...(inPlace ? [] : (['report.json'] as const)),
    'junit.xml',
    'report.html',
    'summary.md',
    ...(histories ? (['trace.jsonl'] as const) : []),
    ...(histories && !inPlace ? (['history.jsonl'] as const) : []),
  ];
  const written = await writeReports(out, run, histories ?? {}, { only });
  process.stderr.write(`faultline: rendered ${writtenFiles(out, written)} in ${out}/\n`);
  return EXIT.ok;
}
