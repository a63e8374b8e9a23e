// `faultline toxiproxy`: the embedded Toxiproxy-compatible server on its own, a drop-in for toxiproxy-server.
import { isLoopbackHost } from '../toxiproxy/address.ts';
import { startEmbeddedToxiproxy } from '../toxiproxy/server.ts';

export interface ToxiproxyCommandOptions {
  host: string;
  port: string;
  seed?: string;
  allowNonLoopback?: boolean;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

export async function runToxiproxyServer(options: ToxiproxyCommandOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`faultline toxiproxy: invalid --port ${options.port}`);
  const seed = options.seed === undefined ? 0 : Number(options.seed);
  if (!Number.isSafeInteger(seed)) fail(`faultline toxiproxy: invalid --seed ${options.seed}`);
  if (!isLoopbackHost(options.host) && !options.allowNonLoopback) {
    fail(
      `faultline toxiproxy: refusing to listen on non-loopback host ${options.host}; pass --allow-non-loopback to expose the API`,
    );
  }
  let server: Awaited<ReturnType<typeof startEmbeddedToxiproxy>>;
  try {
    server = await startEmbeddedToxiproxy({ host: options.host, port, seed });
  } catch (error) {
    fail(`faultline toxiproxy: cannot listen on ${options.host}:${port}: ${(error as Error).message}`);
  }
  const shutdown = () => {
    server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  console.log(`faultline toxiproxy: API listening on ${server.url} (seed ${seed})`);
}
