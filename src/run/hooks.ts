// Setup and reset hooks: commands run before the target starts (setup) and commands or tool calls run once the
// client is connected, before the workload (reset), so every run and replay starts from the same state. A command
// runs without a shell; `${tmpdir}` and `${env:NAME}` are expanded. A failure is one line naming the hook.
import { execFile } from 'node:child_process';
import type { PolicySession } from '../client/policy.ts';
import type { Hook } from '../profile/schema.ts';
import { expandPlaceholders, expandRecord, type PlaceholderValues } from '../targets/placeholders.ts';

/** A hook that failed: the CLI prints it as one line and exits 2. */
export class HookError extends Error {
  readonly userFacing = true;
  constructor(message: string) {
    super(message);
    this.name = 'HookError';
  }
}

export async function runHooks(
  where: 'setup' | 'reset',
  hooks: readonly Hook[] | undefined,
  placeholders: PlaceholderValues,
  session?: PolicySession,
): Promise<void> {
  for (const [i, hook] of (hooks ?? []).entries()) {
    const at = `${where}[${i}]`;
    if ('call' in hook) await callTool(at, hook, session);
    else await runCommand(at, hook, placeholders);
  }
}

async function runCommand(at: string, hook: Exclude<Hook, { call: string }>, values: PlaceholderValues): Promise<void> {
  const command = expandPlaceholders(hook.command, values, `${at}.command`);
  const args = hook.args.map((arg, i) => expandPlaceholders(arg, values, `${at}.args[${i}]`));
  const env = { ...process.env, ...expandRecord(hook.env, values, `${at}.env`) };
  const cwd = hook.cwd === undefined ? undefined : expandPlaceholders(hook.cwd, values, `${at}.cwd`);
  const shown = [command, ...args].join(' ').slice(0, 120);
  await new Promise<void>((resolve, reject) => {
    execFile(command, args, { env, cwd, timeout: hook.timeoutMs, maxBuffer: 1024 * 1024 }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      const lastLine = stderr.trim().split('\n').at(-1)?.slice(0, 200);
      const how =
        error.killed || error.signal
          ? `did not finish within ${hook.timeoutMs} ms`
          : typeof error.code === 'number'
            ? `exited with code ${error.code}`
            : `could not start (${error.code ?? error.message})`;
      reject(new HookError(`${at}: ${shown}: ${how}${lastLine ? `: ${lastLine}` : ''}`));
    });
  });
}

async function callTool(
  at: string,
  hook: Extract<Hook, { call: string }>,
  session: PolicySession | undefined,
): Promise<void> {
  if (!session) throw new HookError(`${at}: a tool call needs a connected server (use it in reset, not setup)`);
  let result: { isError?: boolean; content?: unknown };
  try {
    const { connection } = await session.get();
    result = (await connection.client.callTool({ name: hook.call, arguments: hook.args }, undefined, {
      timeout: hook.timeoutMs,
    })) as typeof result;
  } catch (error) {
    throw new HookError(`${at}: tool ${hook.call} failed: ${(error as Error).message.slice(0, 200)}`);
  }
  if (result.isError) {
    const text = (result.content as { type?: string; text?: string }[] | undefined)?.find(
      (c) => c.type === 'text',
    )?.text;
    throw new HookError(`${at}: tool ${hook.call} answered an error${text ? `: ${text.slice(0, 200)}` : ''}`);
  }
}
