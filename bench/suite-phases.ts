// Where a `faultline run`'s time went, from its report.json: per phase summed over the profiles, several reports
// side by side (e.g. one run before a change and one after, each with the load average beside it). Phases:
//   set-up     from the profile's history start to its workload's start (environment, connect, calibration)
//   probe      of which the calibration's rate probe (calibration.probe.durationMs)
//   workload   from the workload's start to its last op's end, from history.jsonl beside report.json (the declared
//              duration when there is none)
//   declared   the profile's duration as written when it ran (from git when the file changed since): an op-bound
//              profile (`ops:`) ends when its last op does, often well before it
//   drain      from the faults' removal until the server was quiet (drainMs)
//   collect    the rest of the profile's history (ledger read, reports' inputs)
//   beside     the time profiles ran beside one another (a set-up during the last one's drain, --jobs): the sum of
//              their times less the time any one of them ran
//   outside    the run's time outside every profile's history (network backend start, tear-down, judging, gaps)
// Run: node bin/run-ts.js bench/suite-phases.ts OUT_DIR_OR_REPORT... [--label a,b]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { History } from '../src/core/history.ts';
import { historyOf } from '../src/core/history-key.ts';
import type { RunReport } from '../src/measure/run-report.ts';
import { parseProfile } from '../src/profile/load.ts';
import { HISTORY_FILE, parseHistories } from '../src/report/history-file.ts';
import { benchArgs } from './args.ts';

const { options, args: positionals } = benchArgs<{ label?: string }>(
  'suite-phases',
  "where a faultline run's time went, from its report.json, several reports side by side",
  (c) =>
    c
      .argument('<reports...>', 'report.json files or the folders that hold them')
      .option('--label <a,b>', 'a column label for each report (default: its path)'),
);
const labels = options.label?.split(',') ?? positionals;

const PHASES = [
  'profiles',
  'run',
  'set-up',
  'probe',
  'workload',
  'declared',
  'drain',
  'collect',
  'beside',
  'outside',
] as const;
type Phase = (typeof PHASES)[number];

function phasesOf(path: string): Record<Phase, number> {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'report.json') : path;
  if (!existsSync(file)) {
    console.error(`suite-phases: ${file}: no such file (expected a report.json or its folder)`);
    process.exit(2);
  }
  const run = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
  const historyFile = join(dirname(file), HISTORY_FILE);
  const histories = existsSync(historyFile) ? parseHistories(readFileSync(historyFile, 'utf8'), historyFile) : {};
  const sum = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  const spans: [number, number][] = [];
  for (const p of run.profiles) {
    const total = p.durationMs ?? 0;
    const setUp = p.workloadOffsetMs ?? 0;
    // NaN (printed n/a) when the profile as it ran cannot be found.
    const declared = p.file ? (declaredDuration(p.file, p.profileSha256) ?? Number.NaN) : 0;
    const workload = ranFor(historyOf(histories, p), setUp) ?? declared;
    const drain = p.drainMs ?? 0;
    sum.profiles += 1;
    sum['set-up'] += setUp;
    sum.probe += p.calibration?.probe?.durationMs ?? 0;
    sum.workload += workload;
    sum.declared += declared;
    sum.drain += drain;
    sum.collect += Math.max(0, total - setUp - workload - drain);
    sum.beside += total;
    const start = Date.parse(p.startedAt ?? run.startedAt);
    spans.push([start, start + total]);
  }
  const covered = coveredMs(spans);
  sum.beside -= covered;
  sum.run = run.durationMs;
  sum.outside = run.durationMs - covered;
  return sum;
}

/** How long at least one of the spans was open. */
function coveredMs(spans: [number, number][]): number {
  let covered = 0;
  let reached = Number.NEGATIVE_INFINITY;
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    covered += Math.max(0, end - Math.max(start, reached));
    reached = Math.max(reached, end);
  }
  return covered;
}

/** From the workload's start (`setUpMs` into the history) to its last op's end, when the history has ops. */
function ranFor(history: History | undefined, setUpMs: number): number | undefined {
  const ops = history?.ops ?? [];
  if (!history || ops.length === 0) return undefined;
  return ops.reduce((last, op) => Math.max(last, op.endMs), 0) - history.startMs - setUpMs;
}

/**
 * The duration the profile declared when it ran: the file's own when its text is the one the report hashed, else the
 * version in the file's git history with that hash (a run from before the profile was changed).
 */
function declaredDuration(file: string, sha256: string | undefined): number | undefined {
  const key = `${file}@${sha256}`;
  if (!declared.has(key)) {
    const texts = [readFileSync(file, 'utf8'), ...gitVersions(file)];
    const text = texts.find((t) => sha256 === undefined || createHash('sha256').update(t).digest('hex') === sha256);
    declared.set(key, text === undefined ? undefined : parseProfile(file, text).profile.duration);
  }
  return declared.get(key);
}
const declared = new Map<string, number | undefined>();

/** Every committed version of a file, newest first (none outside a git checkout). */
function gitVersions(file: string): string[] {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dirname(file), encoding: 'utf8', stdio: 'pipe' });
  try {
    const path = relative(git('rev-parse', '--show-toplevel').trim(), file);
    return git('log', '--format=%H', '--', basename(file))
      .split('\n')
      .filter(Boolean)
      .map((commit) => git('show', `${commit}:${path}`));
  } catch {
    return [];
  }
}

const rows = positionals.map(phasesOf);
const cell = (phase: Phase, n: number) =>
  phase === 'profiles' ? String(n) : Number.isNaN(n) ? 'n/a' : `${(n / 1000).toFixed(1)} s`;
console.log(['phase', ...labels].map((s) => s.padStart(12)).join(''));
for (const phase of PHASES)
  console.log([phase, ...rows.map((r) => cell(phase, r[phase]))].map((s) => s.padStart(12)).join(''));
if (rows.length > 1) {
  const [first, last] = [rows[0], rows[rows.length - 1]];
  console.log(`run time ${labels.at(-1)} / ${labels[0]}: ${(last.run / first.run).toFixed(2)}`);
}
