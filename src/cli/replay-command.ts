// faultline replay REPORT: rerun the failed profiles of a report with the same profile file, seed and policy,
// and say whether the decision log came out the same.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { POLICY_NAMES } from '../profile/schema.ts';
import { parseSeed } from './parse.ts';
import { runCommand } from './run-command.ts';
import { UserError } from './user-error.ts';

const reportSchema = z.object({
  schemaVersion: z.union([z.literal(1), z.literal(2)]),
  profiles: z.array(
    z.object({
      name: z.string(),
      file: z.string(),
      seed: z.number().int(),
      policy: z.enum(POLICY_NAMES),
      verdict: z.enum(['pass', 'fail']),
      decisionLogSha256: z.string(),
    }),
  ),
});

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('rerun the failed profiles of a report.json with the same seed, policy and profile file')
    .argument('<report>', 'a report.json written by faultline run')
    .option('--all', 'rerun every profile, not only the failed ones')
    .option('--out <dir>', 'where to write the replay reports', 'faultline-replay')
    .option('--toxiproxy <backend>', 'network backend: embedded, container, or a Toxiproxy API URL', 'embedded')
    .option('--seed <n>', 'use another seed than the report (to check a fix holds elsewhere)', parseSeed)
    .action(async (file: string, flags: { all?: boolean; out: string; toxiproxy: string; seed?: number }) => {
      const report = readReport(file);
      const chosen = report.profiles.filter((p) => flags.all || p.verdict === 'fail');
      if (chosen.length === 0) {
        process.stderr.write(
          `faultline: ${file}: every profile passed; nothing to replay (use --all to rerun them anyway)\n`,
        );
        return;
      }
      let code = 0;
      for (const p of chosen) {
        process.stderr.write(
          `faultline: replaying ${p.name} from ${p.file} (seed ${flags.seed ?? p.seed}, policy ${p.policy})\n`,
        );
        const result = await runCommand([p.file], {
          seed: flags.seed ?? p.seed,
          policy: p.policy,
          out: chosen.length > 1 ? `${flags.out}/${p.name}` : flags.out,
          toxiproxy: flags.toxiproxy,
          expectDecisionLog: flags.seed === undefined ? p.decisionLogSha256 : undefined,
        });
        code = Math.max(code, result);
      }
      process.exitCode = code;
    });
}

function readReport(file: string): z.infer<typeof reportSchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: ${code === 'ENOENT' ? 'no such file' : 'not a JSON report'}`);
  }
  const parsed = reportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(
      `${file}: ${issue.path.join('.') || '(document)'}: ${issue.message} (expected a report.json from faultline run)`,
    );
  }
  return parsed.data;
}
