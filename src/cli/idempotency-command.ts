// faultline idempotency [PROFILE]: the idempotency contract (src/contract/) on each workload tool of the profile's
// target (or the target flags'), judged by the ledger or the profile's read-back; a table, idempotency.json and
// junit.xml; exit 0 when nothing failed, 1 when a check failed, 2 on bad input. A stdio target runs behind
// Faultline's HTTP bridge, so drop-after-commit loses real answers on the wire.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractJunit } from '../contract/junit.ts';
import { liveTools } from '../contract/live-tools.ts';
import { contractExit, runContract } from '../contract/suite.ts';
import { contractTable } from '../contract/table.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { createNetworkBackend } from '../network/factory.ts';
import { type LoadedProfile, loadProfile } from '../profile/load.ts';
import { startEnvironment } from '../run/environment.ts';
import { runHooks } from '../run/hooks.ts';
import { listTools } from '../run/preflight.ts';
import { checkAgainstTarget } from '../run/target-check.ts';
import { goesOverHttp } from '../under-test/kinds/index.ts';
import { type TargetFlags, targetFromFlags } from './target-flags.ts';
import { UserError } from './user-error.ts';

export interface IdempotencyFlags extends TargetFlags {
  keyArg?: string[];
  out?: string;
  seed?: number;
  allowNonLoopback?: boolean;
}

/** The reference server's profile whose mix names its keyed write (create_payment). */
const DEFAULT_PROFILE = join(PACKAGE_ROOT, 'chaos-profiles/drop-after-commit.yaml');

const say = (line: string) => process.stderr.write(`faultline idempotency: ${line}\n`);

export async function idempotencyCommand(file: string | undefined, flags: IdempotencyFlags): Promise<number> {
  const loaded = loadProfile(file ?? DEFAULT_PROFILE, { target: targetFromFlags(flags) });
  const keyArgs = keyArgsFrom(flags.keyArg ?? [], loaded);
  const { target } = loaded.profile;
  // drop-after-commit acts on HTTP: a target that can go over Faultline's bridge (stdio, cassette) goes over it.
  const profile = { ...loaded.profile, target: { ...target, ...(goesOverHttp(target) && { over: 'http' as const }) } };
  const seed = flags.seed ?? profile.seed;
  // Straight to the server first, as faultline run does: one that cannot start or lacks a tool says so (exit 2).
  const checked = await checkAgainstTarget(loaded, { allowNonLoopback: flags.allowNonLoopback });
  const workdir = mkdtempSync(join(tmpdir(), `faultline-idempotency-${profile.name}-`));
  const placeholders = { tmpdir: workdir, env: process.env };
  const backend = await createNetworkBackend('embedded');
  try {
    await runHooks('setup', profile.setup, placeholders);
    const env = await startEnvironment(profile, seed, backend, {
      placeholders,
      profileFile: loaded.file,
      allowNonLoopback: flags.allowNonLoopback,
    });
    try {
      await env.connect();
      // The reference tools are known by name; their hints come from the started server.
      const listed = checked ?? (await listTools(env.session));
      const tools = liveTools(profile, env, listed, keyArgs, seed);
      const rows = await runContract(tools, (r) => say(`${r.tool} ${r.check}: ${r.verdict}`));
      const table = contractTable(rows);
      process.stdout.write(`${table}\n`);
      if (flags.out !== undefined) {
        mkdirSync(flags.out, { recursive: true });
        writeFileSync(join(flags.out, 'junit.xml'), contractJunit(rows));
        writeFileSync(join(flags.out, 'idempotency.md'), `# Idempotency contract: ${profile.name}\n\n${table}\n`);
        const json = { profile: profile.name, target: profile.target, seed, rows };
        writeFileSync(join(flags.out, 'idempotency.json'), `${JSON.stringify(json, null, 2)}\n`);
      }
      if (!rows.some((r) => r.verdict !== 'n/a')) say('no check could be judged (every row n/a): nothing certified');
      return contractExit(rows);
    } finally {
      await env.close();
    }
  } finally {
    await backend.close();
    rmSync(workdir, { recursive: true, force: true });
  }
}

/** --key-arg TOOL=ARG, each naming a tool of the profile's workload. */
function keyArgsFrom(pairs: readonly string[], loaded: LoadedProfile): Map<string, string> {
  const tools = new Set(loaded.profile.workload.mix.map((m) => m.tool));
  const out = new Map<string, string>();
  for (const pair of pairs) {
    const [tool, arg] = pair.split('=', 2);
    if (!tool || !arg) throw new UserError(`--key-arg ${pair}: expected TOOL=ARG, e.g. create_order=idempotency_key`);
    if (!tools.has(tool))
      throw new UserError(
        `--key-arg ${pair}: ${tool} is not a tool of ${loaded.file}'s workload (${[...tools].join(', ')})`,
      );
    out.set(tool, arg);
  }
  return out;
}
