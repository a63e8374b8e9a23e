// The SDK 2.4 front end over stdio: serveStdio with one McpServer pinned per connection (the same factory as the
// HTTP front end, so the same tools). `sdk2` serves only 2026-07-28 (an initialize is answered with the
// unsupported-protocol-version error); `dual` also serves a 2025-era opening, from SDK 2.4's own legacy path
// (there is no SDK 1.32 instance on a dual stdio connection, unlike the HTTP dual front end).
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerRuntime } from '../runtime.ts';
import { queuedStdout } from '../stdout-queue.ts';
import { createModernMcpServer } from './mcp-server.ts';

export function serveModernStdio(
  runtime: ServerRuntime,
  frontEnd: 'sdk2' | 'dual',
  onError: (error: Error) => void,
): { close(): Promise<void> } {
  return serveStdio(() => createModernMcpServer(runtime), {
    legacy: frontEnd === 'dual' ? 'serve' : 'reject',
    transport: new StdioServerTransport(process.stdin, queuedStdout()),
    onerror: onError,
  });
}
