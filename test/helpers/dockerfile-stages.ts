// Builds a Dockerfile without a container engine: each stage is a temporary folder standing in for its root
// filesystem (the base image's Node is this machine's), and the instructions run against it as Docker would
// run them: WORKDIR creates and enters a folder, COPY copies from the build context (or, with --from, from an
// earlier stage's folder) with Docker's rules for files and folders, RUN runs in `/bin/sh -c` in the working
// folder, ENV sets variables for the RUNs after it. Any other instruction throws, so the mirror never silently
// skips a step the image would take.
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runCommand } from './run-command.ts';

interface Stage {
  name: string;
  image: string;
  /** The folder standing in for this stage's `/`. */
  root: string;
  /** The working directory as an absolute path inside the image. */
  workdir: string;
  env: Record<string, string>;
  user?: string;
  entrypoint?: string[];
}

interface Instruction {
  keyword: string;
  args: string;
}

/** The instructions, with comments dropped and `\` continuations joined. */
function parseDockerfile(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return logical
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
      return { keyword: keyword.toUpperCase(), args };
    });
}

/** A path inside a stage's image, on this machine. */
export function hostPath(stage: Stage, path: string): string {
  return join(stage.root, path.startsWith('/') ? path : join(stage.workdir, path));
}

export async function buildStages(
  dockerfile: string,
  context: string,
  workspace: string,
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Stage[]> {
  const stages: Stage[] = [];
  const current = (): Stage => {
    const stage = stages.at(-1);
    if (!stage) throw new Error('an instruction before the first FROM');
    return stage;
  };
  for (const { keyword, args } of parseDockerfile(readFileSync(dockerfile, 'utf8'))) {
    if (keyword === 'FROM') {
      const [image, as, name] = args.split(/\s+/);
      const stageName = as?.toUpperCase() === 'AS' ? name : String(stages.length);
      const root = join(workspace, `stage-${stageName}`);
      mkdirSync(root, { recursive: true });
      stages.push({ name: stageName, image, root, workdir: '/', env: {} });
    } else if (keyword === 'WORKDIR') {
      const stage = current();
      stage.workdir = args.startsWith('/') ? args : join(stage.workdir, args);
      mkdirSync(hostPath(stage, stage.workdir), { recursive: true });
    } else if (keyword === 'ENV') {
      const [, key, value] = /^(\S+?)[= ](.*)$/.exec(args)!;
      current().env[key] = value;
    } else if (keyword === 'COPY') {
      copy(current(), stages, context, args);
    } else if (keyword === 'RUN') {
      const stage = current();
      const result = await runCommand('/bin/sh', ['-c', args], {
        cwd: hostPath(stage, stage.workdir),
        env: { ...process.env, ...options.env, ...stage.env },
        timeoutMs: options.timeoutMs,
      });
      if (result.code !== 0) {
        throw new Error(`stage ${stage.name}: RUN ${args} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
      }
    } else if (keyword === 'USER') {
      current().user = args;
    } else if (keyword === 'ENTRYPOINT') {
      current().entrypoint = JSON.parse(args);
    } else {
      throw new Error(`${keyword} is not known to the Dockerfile mirror: teach test/helpers/dockerfile-stages.ts`);
    }
  }
  return stages;
}

/** COPY [--from=stage] src... dest: a folder's contents go into dest; files go into dest/ or become dest. */
function copy(stage: Stage, stages: Stage[], context: string, args: string): void {
  const words = args.split(/\s+/);
  const from = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
  if (words.some((w) => w.startsWith('--'))) throw new Error(`COPY ${args}: flags the mirror does not know`);
  const dest = words.pop()!;
  const source = from === undefined ? undefined : stages.find((s) => s.name === from);
  if (from !== undefined && !source) throw new Error(`COPY --from=${from}: no such stage`);
  const target = hostPath(stage, dest);
  const intoFolder = dest.endsWith('/') || words.length > 1;
  for (const src of words) {
    const path = source ? hostPath(source, src) : join(context, src);
    if (!existsSync(path)) throw new Error(`COPY ${src}: not found in ${source ? `stage ${from}` : 'the context'}`);
    if (statSync(path).isDirectory()) cpSync(path, target, { recursive: true });
    else {
      mkdirSync(intoFolder ? target : join(target, '..'), { recursive: true });
      cpSync(path, intoFolder ? join(target, basename(path)) : target);
    }
  }
}
