// A profile checked against its server before anything is written: for a target that lists its own tools (kinds
// stdio and http, a url without the reference admin endpoint), connect straight to it (no proxy, no faults) and run
// the preflight (preflight.ts): every workload tool listed, fixed arguments fitting the inputSchema. `faultline run`
// does it before --out is created, so a wrong tool name leaves no output directory; `validate` and `plan` with a
// target flag do it too. The setup hooks run first (the server may need them), in a temporary directory of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from '../client/session.ts';
import { StdioEdgeController } from '../faults/edge/stdio/controller.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { listsOwnTools } from '../profile/schema.ts';
import { withoutCassette } from '../targets/cassette-target.ts';
import type { ForeignStdioTarget } from '../targets/foreign-stdio-target.ts';
import { expandRecord } from '../targets/placeholders.ts';
import { remoteTargetFrom, TargetConfigError } from '../targets/remote-target.ts';
import { connectStdio, foreignHttpTarget, foreignStdioTarget, stdioSession } from './environment.ts';
import { runHooks } from './hooks.ts';
import { type ListedTool, preflight } from './preflight.ts';

export interface TargetCheckOptions {
  allowNonLoopback?: boolean;
}

/** The tools the target lists, once the workload was checked against them; undefined for the reference tools. */
export async function checkAgainstTarget(
  loaded: LoadedProfile,
  options: TargetCheckOptions = {},
): Promise<Map<string, ListedTool> | undefined> {
  const { profile } = loaded;
  const target = withoutCassette(profile.target, loaded.file);
  if (!listsOwnTools(target)) return undefined;
  const workdir = mkdtempSync(join(tmpdir(), `faultline-check-${profile.name}-`));
  const placeholders = { tmpdir: workdir, env: process.env };
  const allow = options.allowNonLoopback === true;
  let session: Session | undefined;
  let server: ForeignStdioTarget | undefined;
  try {
    await runHooks('setup', profile.setup, placeholders);
    if (target.kind === 'stdio') {
      server = foreignStdioTarget(target, placeholders, new StdioEdgeController());
      session = stdioSession(`stdio:${target.command}`, server);
      await connectStdio(session, server);
    } else if (target.kind === 'url' || target.kind === 'http') {
      const url = (target.kind === 'url' ? remoteTargetFrom(target, allow) : foreignHttpTarget(target.url, allow)).url;
      const headers = target.kind === 'http' ? expandRecord(target.headers, placeholders, 'target.headers') : undefined;
      session = new Session({ url, headers });
      await session.get().catch((error: Error) => {
        throw new TargetConfigError(`target.url ${url}: could not connect (${error.message.slice(0, 200)})`);
      });
    }
    return session && (await preflight(loaded, session));
  } finally {
    await session?.close();
    await server?.close();
    rmSync(workdir, { recursive: true, force: true });
  }
}
