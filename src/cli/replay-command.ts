// faultline replay REPORT: rerun the failed profiles of a report with the same profile file, seed and policy,
// from any directory, and compare the replay's decisions with the original run's (history.jsonl next to the
// report) op by op: "decisions identical (N)" or the first divergence (op, attempt, stream, expected vs got).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { compareDecisions, describeDivergence } from '../core/decision-diff.ts';
import type { Decisions } from '../core/history.ts';
import { POLICY_NAMES } from '../core/policy-names.ts';
import { VERDICTS } from '../measure/run-report.ts';
import { readHistories, readReportFile, readRun } from './read-run.ts';
import { runCommand } from './run-command.ts';
import { EXIT, UserError } from './user-error.ts';

const reportSchema = z.object({
  schemaVersion: z.union([z.literal(1), z.literal(2)]),
  profiles: z.array(
    z.object({
      name: z.string(),
      file: z.string(),
      profileSha256: z.string().optional(),
      seed: z.number().int(),
      policy: z.enum(POLICY_NAMES),
      verdict: z.enum(VERDICTS),
      decisionLogSha256: z.string(),
    }),
  ),
  invocation: z
    .object({
      targetCommand: z.string().optional(),
      targetUrl: z.string().optional(),
      mcpConfig: z.string().optional(),
      server: z.string().optional(),
      targetEnv: z.array(z.string()).optional(),
      clientModule: z.string().optional(),
      allowNonLoopback: z.literal(true).optional(),
      cwd: z.string(),
    })
    .optional(),
});

export interface ReplayFlags {
  all?: boolean;
  out: string;
  toxiproxy: string;
  seed?: number;
  allowLarge?: boolean;
}

export async function replayCommand(file: string, flags: ReplayFlags): Promise<number> {
  const { report } = readReportFile(file, reportSchema, 'a report.json from faultline run');
  const chosen = report.profiles.filter((p) => flags.all || p.verdict !== 'pass');
  if (chosen.length === 0) {
    process.stderr.write(
      `faultline: ${file}: every profile passed; nothing to replay (use --all to rerun them anyway)\n`,
    );
    return EXIT.ok;
  }
  // The original decisions; a report copied away from its run directory has none (then the hash decides).
  const originals = readHistories(dirname(resolve(file)));
  let code = 0;
  for (const p of chosen) {
    if (!existsSync(p.file)) throw new UserError(`${file}: profile ${p.name}: ${p.file} no longer exists`);
    const now = createHash('sha256').update(readFileSync(p.file)).digest('hex');
    if (p.profileSha256 && now !== p.profileSha256) {
      process.stderr.write(
        `faultline: warning: ${p.file} has changed since the run; the replay runs the profile as it is now\n`,
      );
    }
    const { cwd, ...given } = report.invocation ?? {};
    const allowed = report.invocation?.allowNonLoopback ? ', --allow-non-loopback as the original run' : '';
    process.stderr.write(
      `faultline: replaying ${p.name} from ${p.file} (seed ${flags.seed ?? p.seed}, policy ${p.policy}${allowed})\n`,
    );
    const out = chosen.length > 1 ? `${flags.out}/${p.name}` : flags.out;
    const result = await runCommand([p.file], {
      // The original run's target flags, client module and --allow-non-loopback, its stdio server spawned where it was.
      ...given,
      ...(cwd !== undefined && { targetCwd: cwd }),
      seed: flags.seed ?? p.seed,
      policy: p.policy,
      out,
      toxiproxy: flags.toxiproxy,
      allowLarge: flags.allowLarge,
    });
    code = Math.max(code, result);
    if (flags.seed === undefined && result !== EXIT.interrupted) {
      process.stderr.write(`faultline: ${sameDecisions(p, originals?.[p.name]?.decisions, out)}\n`);
    }
  }
  return code;
}

/** One line: the replay's decisions against the original's, op by op (or by hash without the original's log). */
function sameDecisions(
  original: { decisionLogSha256: string },
  originalLog: Decisions | undefined,
  out: string,
): string {
  const replayed = readHistories(out);
  const replayLog = replayed && Object.values(replayed)[0]?.decisions;
  if (!originalLog || !replayLog) {
    const same = readRun(out).run.profiles[0]?.decisionLogSha256 === original.decisionLogSha256;
    return `no history.jsonl beside the original report: decision log hash ${same ? 'identical' : 'DIFFERS'} (${original.decisionLogSha256.slice(0, 12)}…)`;
  }
  const c = compareDecisions([...originalLog], [...replayLog]);
  if (c.divergence) return `decisions DIFFER from the original run: ${describeDivergence(c.divergence)}`;
  const timing = c.keyed.onlyFirst.length + c.keyed.onlySecond.length;
  return (
    `decisions identical (${c.planDecisions}) to the original run, op by op; ${c.keyed.common} keyed draws in both agree` +
    (timing > 0 ? `, ${timing} reached by one run only (timing, not a divergence)` : '')
  );
}
