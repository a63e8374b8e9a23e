// A profile checked against its server before anything is written: for a target that lists its own tools (kinds
// stdio and http, a url without the reference admin endpoint), connect straight to it (no proxy, no faults) and run
// the preflight (preflight.ts): every workload tool listed, fixed arguments fitting the inputSchema. `faultline run`
// does it before --out is created, so a wrong tool name leaves no output directory; `validate` and `plan` with a
// target flag do it too. The setup hooks run first (the server may need them), in a temporary directory of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from '../client/session.ts';
import { PAIRINGS } from '../core/pairing.ts';
import { StdioEdgeController } from '../faults/edge/stdio/controller.ts';
import type { LoadedProfile } from '../profile/load.ts';
import { listsOwnTools } from '../profile/schema.ts';
import { ForeignStdioTarget } from '../targets/foreign-stdio-target.ts';
import { couldNotConnect } from '../targets/remote-target.ts';
import { connectStdio, stdioSession } from './environment.ts';
import { runHooks } from './hooks.ts';
import { type ListedTool, preflight } from './preflight.ts';
import { startTarget } from './target-starts/index.ts';
import type { StartedServer } from './target-starts/start.ts';

export interface TargetCheckOptions {
  allowNonLoopback?: boolean;
}

/** The tools the target lists, once the workload was checked against them; undefined for the reference tools. */
export async function checkAgainstTarget(
  loaded: LoadedProfile,
  options: TargetCheckOptions = {},
): Promise<Map<string, ListedTool> | undefined> {
  const { profile } = loaded;
  if (!listsOwnTools(profile.target)) return undefined;
  const workdir = mkdtempSync(join(tmpdir(), `faultline-check-${profile.name}-`));
  const placeholders = { tmpdir: workdir, env: process.env };
  let session: Session | undefined;
  let started: StartedServer | undefined;
  try {
    await runHooks('setup', profile.setup, placeholders);
    // Started as a run starts it (no proxy, no faults, no interception), and asked straight.
    started = await startTarget(profile.target, {
      seed: profile.seed,
      pairing: PAIRINGS[0],
      stdio: new StdioEdgeController(),
      placeholders,
      profileFile: loaded.file,
      opKeyValues: () => [],
      allowNonLoopback: options.allowNonLoopback === true,
      keysScoped: true,
    });
    session = await connectDirectly(started);
    return await preflight(loaded, session);
  } finally {
    await session?.close();
    await (started?.link === 'pipe' ? started.server.close() : started?.stop());
    rmSync(workdir, { recursive: true, force: true });
  }
}

/** A session straight to the started server; one that cannot connect says why in one line (a foreign stdio
 * server, behind the bridge too: its exit and stderr). */
async function connectDirectly(started: StartedServer): Promise<Session> {
  if (started.link === 'pipe') {
    const session = stdioSession(started.mcpUrl, started.server);
    await connectStdio(session, started.server).catch(async (error) => {
      await session.close();
      throw error;
    });
    return session;
  }
  const { server, upstream } = started;
  const session = new Session({ url: upstream.href, headers: started.headers });
  await session.get().catch(async (error: Error) => {
    await session.close();
    if (server instanceof ForeignStdioTarget) throw await server.startFailure(error);
    throw couldNotConnect(upstream.href, error);
  });
  return session;
}
