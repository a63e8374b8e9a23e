// faultline record: sits between a client and any MCP server and writes what passes as a cassette, which target
// kind cassette serves back under faults. The client reaches the recorder over stdio (it spawns
// `faultline record ...` as its server command) or, with --port, over Streamable HTTP; the recorder reaches the
// server by the usual target flags (a stdio command, a URL, an --mcp-config entry).
import { tmpdir } from 'node:os';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CassetteWriter, recorded } from '../cassette/recorder.ts';
import { startHttpBridge } from '../targets/http-bridge.ts';
import { recordedServer } from './record-targets/index.ts';
import { type TargetFlags, targetFromFlags } from './target-flags.ts';

export interface RecordFlags extends TargetFlags {
  cassette: string;
  port?: number;
  allowNonLoopback?: boolean;
}

export async function recordCommand(flags: RecordFlags): Promise<number> {
  const placeholders = { tmpdir: tmpdir(), env: process.env };
  const { open, name } = recordedServer(targetFromFlags(flags), {
    placeholders,
    allowNonLoopback: flags.allowNonLoopback === true,
  });
  const cassette = new CassetteWriter(flags.cassette, name);
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  if (flags.port !== undefined) {
    const bridge = await startHttpBridge(() => recorded(open(), cassette), flags.port);
    process.stdout.write(
      `faultline record: MCP endpoint ${bridge.url}, recording to ${flags.cassette} (Ctrl-C stops)\n`,
    );
    await stopped;
    await bridge.close();
  } else {
    await relayStdio(recorded(open(), cassette), stopped);
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
