// Reads what `faultline run` wrote: report.json (through the published schema) and history.jsonl. A bad file is
// one line naming it, the path inside it and what was expected (exit 2).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { History } from '../core/history.ts';
import type { RunReport } from '../measure/run-report.ts';
import { HISTORY_FILE, parseHistories } from '../report/history-file.ts';
import { runReportSchema } from '../report/report-schema.ts';
import { readNamedFile } from './read-text.ts';
import { UserError } from './user-error.ts';

export interface RunOnDisk {
  /** The run directory (where report.json is). */
  dir: string;
  reportPath: string;
  run: RunReport;
}

/** `target` is a run directory or a report.json. */
export function readRun(target: string): RunOnDisk {
  const reportPath = isDirectory(target) ? join(target, 'report.json') : target;
  const { raw } = readReportFile(
    reportPath,
    runReportSchema,
    'a report.json of faultline run, schema/report.schema.json',
  );
  // The document as written (its key order too; the strict schema admits no other keys). The schema admits every
  // documented verdict; renderers read verdicts by name, so the wider type is safe.
  return { dir: dirname(reportPath), reportPath, run: raw as RunReport };
}

/** A report.json as written and as `schema` reads it; else a UserError naming the file, the first problem and `expected`. */
export function readReportFile<S extends z.ZodType>(
  path: string,
  schema: S,
  expected: string,
): { raw: unknown; report: z.infer<S> } {
  const text = readNamedFile(path, `expected ${expected}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UserError(`${path}: not JSON (expected ${expected})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${path}: ${issue.path.join('.') || '(document)'}: ${issue.message} (expected ${expected})`);
  }
  return { raw, report: parsed.data };
}

/** The recorded histories next to report.json, or undefined when the run dir has none. */
export function readHistories(dir: string): Record<string, History> | undefined {
  const file = join(dir, HISTORY_FILE);
  if (!existsSync(file)) return undefined;
  return parseHistories(readFileSync(file, 'utf8'), file);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
