// faultline replay REPORT: rerun the failed profiles of a report with the same profile file, seed and policy,
// and say whether the decision log came out the same.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { POLICY_NAMES } from '../client/policies/names.ts';
import { VERDICTS } from '../measure/run-report.ts';
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
});

export interface ReplayFlags {
  all?: boolean;
  out: string;
  toxiproxy: string;
  seed?: number;
  allowLarge?: boolean;
}

export async function replayCommand(file: string, flags: ReplayFlags): Promise<number> {
  const report = readReport(file);
  const chosen = report.profiles.filter((p) => flags.all || p.verdict !== 'pass');
  if (chosen.length === 0) {
    process.stderr.write(
      `faultline: ${file}: every profile passed; nothing to replay (use --all to rerun them anyway)\n`,
    );
    return EXIT.ok;
  }
  let code = 0;
  for (const p of chosen) {
    if (!existsSync(p.file)) throw new UserError(`${file}: profile ${p.name}: ${p.file} no longer exists`);
    const now = createHash('sha256').update(readFileSync(p.file)).digest('hex');
    if (p.profileSha256 && now !== p.profileSha256) {
      process.stderr.write(
        `faultline: warning: ${p.file} has changed since the run; the replay runs the profile as it is now\n`,
      );
    }
    process.stderr.write(
      `faultline: replaying ${p.name} from ${p.file} (seed ${flags.seed ?? p.seed}, policy ${p.policy})\n`,
    );
    const result = await runCommand([p.file], {
      seed: flags.seed ?? p.seed,
      policy: p.policy,
      out: chosen.length > 1 ? `${flags.out}/${p.name}` : flags.out,
      toxiproxy: flags.toxiproxy,
      allowLarge: flags.allowLarge,
      expectDecisionLog: flags.seed === undefined ? p.decisionLogSha256 : undefined,
    });
    code = Math.max(code, result);
  }
  return code;
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
