// faultline merge DIR... : one report from the shard.json files of `faultline run --shard i/n` runs. Each profile
// is judged once, from its merged history, by the thresholds in the profile text the shards carried.
import { join } from 'node:path';
import { mergeShards, type ShardInput } from '../measure/merge.ts';
import { EXIT_CODE_OF } from '../measure/run-report.ts';
import { parseShardOutput, SHARD_FILE } from '../measure/shard-format.ts';
import { formatCapacityText } from '../report/capacity-table.ts';
import { formatConsoleSummary } from '../report/console.ts';
import { writeReports } from '../report/write.ts';
import { judgingOf } from '../run/judging.ts';
import { prepareOutDir, writtenFiles } from './out-dir.ts';
import { readNamedFile } from './read-text.ts';
import { UserError } from './user-error.ts';

export async function mergeCommand(dirs: string[], flags: { out: string }): Promise<number> {
  const inputs = dirs.map(readShard);
  prepareOutDir(flags.out);
  const { run, histories } = mergeShards(inputs, judgingOf);
  const written = await writeReports(flags.out, run, histories);
  process.stdout.write(
    run.capacity
      ? formatCapacityText(run.capacity)
      : `${formatConsoleSummary(run, { reportHtml: join(flags.out, 'report.html') })}\n`,
  );
  process.stderr.write(
    `faultline: merged ${inputs.length} shard(s) into ${flags.out}/ (${writtenFiles(flags.out, written)})\n`,
  );
  // A capacity review exits as `faultline capacity` does; a run by its merged verdict.
  if (run.capacity) {
    const { capacityExitCode } = await import('./capacity-command.ts');
    return capacityExitCode(run);
  }
  return EXIT_CODE_OF[run.verdict];
}

function readShard(dir: string): ShardInput {
  const file = join(dir, SHARD_FILE);
  const text = readNamedFile(file, 'expected the --out folder of a `faultline run --shard i/n`');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UserError(`${file}: not JSON (expected the ${SHARD_FILE} a sharded run writes)`);
  }
  const parsed = parseShardOutput(value);
  if ('problem' in parsed) throw new UserError(`${file}: ${parsed.problem}`);
  return { label: dir, shard: parsed.shard };
}
