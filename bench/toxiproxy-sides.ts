// The Toxiproxy servers a bench compares: the embedded one in a process of its own (as a real toxiproxy-server
// runs, so it does not share an event loop with the load), and a real one given by `--real URL`. Every ratio
// against real Toxiproxy comes from measuring both in the same run; without `--real` there is no ratio.
// The embedded server writes no log line per request or connection (src/toxiproxy has no logger at all), which
// matches a real toxiproxy-server started with LOG_LEVEL=error; start the real one that way for a like-for-like
// comparison (its default, info, logs every request and connection).
import { execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { benchArgs, InvalidArgumentError, parseWhole } from './args.ts';
import { buildMeasured, shippedModule } from './shipped.ts';

export interface ToxiproxySide {
  label: string;
  url: URL;
  /** The server process's CPU time so far (for a real server, only with `--real-pid PID`, on Linux). */
  cpu?(): Promise<NodeJS.CpuUsage>;
  stop(): void;
}

const SELF = fileURLToPath(import.meta.url);
export const REAL_HINT = 'give --real http://127.0.0.1:8474, a toxiproxy-server 2.12 started with LOG_LEVEL=error';

function fail(message: string): never {
  console.error(`${process.argv[1]?.split('/').pop() ?? 'bench'}: ${message}`);
  process.exit(2);
}

/** The embedded server in a child process; says which build it runs. */
export async function startEmbeddedSide(): Promise<ToxiproxySide> {
  console.log(buildMeasured('the embedded Toxiproxy'));
  const child = fork(fileURLToPath(new URL('../bin/run-ts.js', import.meta.url)), [SELF, 'serve']);
  const url = new URL(await new Promise<string>((resolve) => child.once('message', (m: any) => resolve(m.url))));
  return {
    label: 'embedded',
    url,
    cpu: () =>
      new Promise((resolve) => {
        child.once('message', (m: any) => resolve(m.cpu));
        child.send('cpu');
      }),
    stop: () => child.disconnect(),
  };
}

/** The flags that name a real Toxiproxy to compare with. */
interface RealFlags {
  real?: URL;
  realPid?: number;
}

function realOptions(command: Command): Command {
  return command
    .option(
      '--real <url>',
      "a real Toxiproxy's API to measure beside the embedded one (a toxiproxy-server 2.12 started with LOG_LEVEL=error)",
      parseUrl,
    )
    .option('--real-pid <pid>', "the real Toxiproxy's process id, for its CPU time (Linux)", parseWhole);
}

function parseUrl(value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new InvalidArgumentError('expected a Toxiproxy API URL such as http://127.0.0.1:8474');
  }
}

/**
 * A Toxiproxy bench's command line (--real, --real-pid; bad input exits 2), then the real Toxiproxy named by
 * `--real URL`, checked with GET /version; undefined without the flag.
 */
export async function realSide(bench: string, description: string): Promise<ToxiproxySide | undefined> {
  const { real: url, realPid } = benchArgs<RealFlags>(bench, description, realOptions).options;
  if (url === undefined) {
    if (realPid !== undefined) fail('--real-pid needs --real');
    return undefined;
  }
  const version = await fetch(new URL('/version', url))
    .then((response) => response.text())
    .catch((error: Error) => fail(`--real ${url.href}: no Toxiproxy answered GET /version (${error.message})`));
  console.log(`real Toxiproxy at ${url.origin}: version ${version.trim()}`);
  if (realPid === undefined) return { label: 'real', url, stop: () => {} };
  const pid = String(realPid);
  return { label: 'real', url, cpu: async () => procCpu(pid), stop: () => {} };
}

/** CPU time of another process from /proc/PID/stat (utime and stime, fields 14 and 15, in clock ticks). */
function procCpu(pid: string): NodeJS.CpuUsage {
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString());
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    fail(`--real-pid ${pid}: no /proc/${pid}/stat (no such process, or not Linux)`);
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const micros = (field: string) => (Number(field) / ticksPerSecond) * 1e6;
  return { user: micros(fields[11]), system: micros(fields[12]) };
}

/** The 1, 5 and 15 minute load averages, printed beside every figure (two cores shared by other work). */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** The proxies a bench made on each side, so it can leave a real (perhaps shared) server as it found it. */
const made = new WeakMap<ToxiproxySide, Set<string>>();

/** Deletes the proxies this bench made on a side. */
export async function dropProxies(side: ToxiproxySide): Promise<void> {
  for (const name of made.get(side) ?? []) {
    await fetch(new URL(`/proxies/${name}`, side.url), { method: 'DELETE' }).catch(() => undefined);
  }
  made.delete(side);
}

/** Creates (or replaces) a proxy on a side in front of a loopback port; answers the port it listens on. */
export async function proxyOn(side: ToxiproxySide, name: string, upstreamPort: number): Promise<number> {
  if (!made.has(side)) made.set(side, new Set());
  made.get(side)!.add(name);
  await fetch(new URL(`/proxies/${name}`, side.url), { method: 'DELETE' }).catch(() => undefined);
  const response = await fetch(new URL('/proxies', side.url), {
    method: 'POST',
    body: JSON.stringify({ name, listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstreamPort}` }),
  });
  const proxy = (await response.json()) as { listen: string };
  if (response.status !== 201) throw new Error(`${side.label}: create proxy ${name}: ${JSON.stringify(proxy)}`);
  return Number(proxy.listen.slice(proxy.listen.lastIndexOf(':') + 1));
}

/** Child mode: the embedded server; answers its URL, then its CPU time whenever asked. */
async function serve(): Promise<void> {
  const { startEmbeddedToxiproxy } = (await shippedModule(
    'toxiproxy/server',
  )) as typeof import('../src/toxiproxy/server.ts');
  const toxiproxy = await startEmbeddedToxiproxy({ seed: 1 });
  process.send!({ url: toxiproxy.url });
  process.on('message', () => process.send!({ cpu: process.cpuUsage() }));
  process.once('disconnect', () => void toxiproxy.close().then(() => process.exit(0)));
}

if (process.argv[1] === SELF && process.argv[2] === 'serve') await serve();
