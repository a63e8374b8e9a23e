// Starts a long-running `faultline` command (a server, Toxiproxy) as a user would, and waits until it has printed
// every address it serves.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { REPO } from './cli.ts';

export interface Serving {
  /** What each pattern's first group matched, in the patterns' order. */
  urls: string[];
  /** SIGTERM, then wait until it exited. */
  stop(): Promise<void>;
}

export function serveCli(args: string[], patterns: RegExp[], timeoutMs = 20_000): Promise<Serving> {
  const child = spawn(process.execPath, ['bin/faultline.js', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const urls: (string | undefined)[] = patterns.map(() => undefined);
  return new Promise<Serving>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`faultline ${args[0]} printed no URLs in ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`faultline ${args[0]} exited (${code})`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      patterns.forEach((pattern, i) => {
        urls[i] = pattern.exec(line)?.[1] ?? urls[i];
      });
      if (urls.every((url) => url !== undefined)) {
        clearTimeout(timer);
        resolve({ urls: urls as string[], stop });
      }
    });
  });
}

export interface ReferenceServer {
  mcpUrl: string;
  adminUrl: string;
  stop(): Promise<void>;
}

/** `faultline server` on ephemeral ports with its admin endpoint behind `token`; `allowHosts`: its --allow-host names. */
export async function serveReference(token: string, allowHosts: string[] = []): Promise<ReferenceServer> {
  const serving = await serveCli(
    [
      'server',
      '--port',
      '0',
      '--admin-port',
      '0',
      '--admin-token',
      token,
      ...allowHosts.flatMap((name) => ['--allow-host', name]),
    ],
    [/MCP endpoint (\S+)/, /control API (\S+)/],
  );
  const [mcpUrl, adminUrl] = serving.urls;
  return { mcpUrl, adminUrl, stop: serving.stop };
}
