// The server `faultline record` records, reached directly (no proxy, no faults): the stdio command or the Streamable
// HTTP URL the target flags name, with `${tmpdir}` and `${env:NAME}` expanded as a run expands them, an HTTP
// server's headers sent (an --mcp-config entry's Authorization), and a stdio server's stderr left on the terminal.
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TargetSpec } from '../profile/schema.ts';
import { expandPlaceholders, expandRecord, type PlaceholderValues } from '../targets/placeholders.ts';
import { assertLoopbackUrl } from '../targets/remote-target.ts';
import { UserError } from './user-error.ts';

export interface RecordedServer {
  /** A new transport to the server: a stdio server is spawned once per session. */
  open: () => Transport;
  /** What the cassette's header names as its target. */
  name: string;
}

export function recordedServer(
  target: TargetSpec | undefined,
  placeholders: PlaceholderValues,
  allowNonLoopback: boolean,
): RecordedServer {
  if (target?.kind === 'stdio') {
    const command = expandPlaceholders(target.command, placeholders, 'target.command');
    const args = (target.args ?? []).map((a, i) => expandPlaceholders(a, placeholders, `target.args[${i}]`));
    const env = { ...getDefaultEnvironment(), ...expandRecord(target.env ?? {}, placeholders, 'target.env') };
    const cwd = target.cwd && expandPlaceholders(target.cwd, placeholders, 'target.cwd');
    const maxBufferSize = target.maxBufferBytes;
    return {
      open: () =>
        new StdioClientTransport({
          command,
          args,
          env,
          stderr: 'inherit',
          ...(cwd && { cwd }),
          ...(maxBufferSize && { maxBufferSize }),
        }),
      name: [command, ...args].join(' '),
    };
  }
  if (target?.kind === 'http') {
    assertLoopbackUrl('--target-url', target.url, allowNonLoopback);
    const headers = expandRecord(target.headers ?? {}, placeholders, 'target.headers');
    const url = new URL(target.url);
    return {
      open: () => new StreamableHTTPClientTransport(url, { requestInit: { headers } }),
      name: target.url,
    };
  }
  throw new UserError('record: expected the server to record: --target-command, --target-url or --mcp-config');
}
