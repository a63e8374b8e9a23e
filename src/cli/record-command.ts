// faultline record: sits between a client and any MCP server and writes what passes as a cassette, which target
// kind cassette serves back under faults. The client reaches the recorder over stdio (it spawns
// `faultline record ...` as its server command) or, with --port, over Streamable HTTP; the recorder reaches the
// server by the usual target flags (a stdio command, a URL, an --mcp-config entry).
import { tmpdir } from 'node:os';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CassetteWriter, recorded } from '../cassette/recorder.ts';
import { startHttpBridge } from '../targets/http-bridge.ts';
import { expandPlaceholders, expandRecord } from '../targets/placeholders.ts';
import { assertLoopbackUrl } from '../targets/remote-target.ts';
import { type TargetFlags, targetFromFlags } from './target-flags.ts';
import { UserError } from './user-error.ts';

export interface RecordFlags extends TargetFlags {
  cassette: string;
  port?: number;
  allowNonLoopback?: boolean;
}

export async function recordCommand(flags: RecordFlags): Promise<number> {
  const target = targetFromFlags(flags);
  if (!target || (target.kind !== 'stdio' && target.kind !== 'http'))
    throw new UserError('record: expected the server to record: --target-command, --target-url or --mcp-config');
  const placeholders = { tmpdir: tmpdir(), env: process.env };
  let server: () => Transport;
  let name: string;
  if (target.kind === 'stdio') {
    const env = { ...getDefaultEnvironment(), ...expandRecord(target.env ?? {}, placeholders, 'target.env') };
    const command = expandPlaceholders(target.command, placeholders, 'target.command');
    const args = (target.args ?? []).map((a, i) => expandPlaceholders(a, placeholders, `target.args[${i}]`));
    server = () => new StdioClientTransport({ command, args, env, cwd: target.cwd, stderr: 'inherit' });
    name = [command, ...args].join(' ');
  } else {
    assertLoopbackUrl('--target-url', target.url, flags.allowNonLoopback === true);
    const url = new URL(target.url);
    server = () => new StreamableHTTPClientTransport(url);
    name = target.url;
  }
  const cassette = new CassetteWriter(flags.cassette, name);
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  if (flags.port !== undefined) {
    const bridge = await startHttpBridge(() => recorded(server(), cassette), flags.port);
    process.stdout.write(
      `faultline record: MCP endpoint ${bridge.url}, recording to ${flags.cassette} (Ctrl-C stops)\n`,
    );
    await stopped;
    await bridge.close();
  } else {
    await relayStdio(recorded(server(), cassette), stopped);
  }
  await cassette.close();
  process.stderr.write(`faultline record: ${cassette.messages} messages written to ${flags.cassette}\n`);
  return 0;
}

/** This process's stdin/stdout as the client's side, passed through to `server` until either side ends. */
async function relayStdio(server: Transport, stopped: Promise<void>): Promise<void> {
  const client = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    client.onclose = resolve;
    server.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  client.onmessage = (message) => void server.send(message).catch(() => {});
  server.onmessage = (message) => void client.send(message).catch(() => {});
  await server.start();
  await client.start();
  await Promise.race([ended, stopped]);
  await Promise.allSettled([server.close(), client.close()]);
}
