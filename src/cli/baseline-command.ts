// faultline baseline update RUN_DIR|report.json [--out FILE]: writes the baseline a later `faultline run
// --baseline FILE` compares against (known failures, metric values; tolerances kept from an existing file).
import { existsSync, writeFileSync } from 'node:fs';
import { buildBaseline } from '../report/baseline.ts';
import { type BaselineFile, parseBaseline } from '../report/baseline-file.ts';
import { readRun } from './read-run.ts';
import { readNamedFile } from './read-text.ts';
import { EXIT } from './user-error.ts';

export function baselineUpdate(target: string, out: string): number {
  const { run, reportPath } = readRun(target);
  const previous = existsSync(out) ? readBaseline(out) : undefined;
  const next = buildBaseline(run, previous);
  writeFileSync(out, `${JSON.stringify(next, null, 2)}\n`);
  const known = next.profiles.reduce((n, p) => n + p.knownFailures.length, 0);
  process.stderr.write(
    `faultline: ${out}: baseline of ${next.profiles.length} profile(s) from ${reportPath}, ${known} known failure(s)\n`,
  );
  return EXIT.ok;
}

export function readBaseline(file: string): BaselineFile {
  return parseBaseline(readNamedFile(file, 'write one with faultline baseline update'), file);
}
