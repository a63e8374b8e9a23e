// Where a `faultline run`'s time went, from its report.json: per phase summed over the profiles, several reports
// side by side (e.g. one run before a change and one after, each with the load average beside it). Phases:
//   set-up     from the profile's history start to its workload's start (environment, connect, calibration)
//   probe      of which the calibration's rate probe (calibration.probe.durationMs)
//   workload   the profile's duration as written (the op schedule)
//   drain      from the faults' removal until the server was quiet (drainMs)
//   collect    the rest of the profile's history (ledger read, reports' inputs)
//   outside    the run's time outside every profile's history (network backend start, tear-down, judging, gaps)
// Run: node bin/run-ts.js bench/suite-phases.ts OUT_DIR_OR_REPORT... [--label a,b]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../src/measure/run-report.ts';
import { loadProfile } from '../src/profile/load.ts';
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

const PHASES = ['profiles', 'run', 'set-up', 'probe', 'workload', 'drain', 'collect', 'outside'] as const;
type Phase = (typeof PHASES)[number];

function phasesOf(path: string): Record<Phase, number> {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'report.json') : path;
  if (!existsSync(file)) {
    console.error(`suite-phases: ${file}: no such file (expected a report.json or its folder)`);
    process.exit(2);
  }
  const run = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
  const sum = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  const durations = new Map<string, number>();
  for (const p of run.profiles) {
    if (p.file && !durations.has(p.file)) durations.set(p.file, loadProfile(p.file).profile.duration);
    const total = p.durationMs ?? 0;
    const setUp = p.workloadOffsetMs ?? 0;
    const workload = p.file ? (durations.get(p.file) ?? 0) : 0;
    const drain = p.drainMs ?? 0;
    sum.profiles += 1;
    sum['set-up'] += setUp;
    sum.probe += p.calibration?.probe?.durationMs ?? 0;
    sum.workload += workload;
    sum.drain += drain;
    sum.collect += Math.max(0, total - setUp - workload - drain);
    sum.outside -= total;
  }
  sum.run = run.durationMs;
  sum.outside += run.durationMs;
  return sum;
}

const rows = positionals.map(phasesOf);
const cell = (phase: Phase, n: number) => (phase === 'profiles' ? String(n) : `${(n / 1000).toFixed(1)} s`);
console.log(['phase', ...labels].map((s) => s.padStart(12)).join(''));
for (const phase of PHASES)
  console.log([phase, ...rows.map((r) => cell(phase, r[phase]))].map((s) => s.padStart(12)).join(''));
if (rows.length > 1) {
  const [first, last] = [rows[0], rows[rows.length - 1]];
  console.log(`run time ${labels.at(-1)} / ${labels[0]}: ${(last.run / first.run).toFixed(2)}`);
}
