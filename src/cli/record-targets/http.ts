// A Streamable HTTP server: loopback unless allowed, with the target's headers (an --mcp-config entry's
// Authorization) sent, their placeholders expanded.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expandRecord } from '../../targets/placeholders.ts';
import { assertLoopbackUrl } from '../../targets/remote-target.ts';
import type { RecordTarget } from './recorder.ts';

export const recordHttp: RecordTarget<{ url: string; headers?: Record<string, string> }> = (target, ctx) => {
  assertLoopbackUrl('--target-url', target.url, ctx.allowNonLoopback);
  const headers = expandRecord(target.headers ?? {}, ctx.placeholders, 'target.headers');
  const url = new URL(target.url);
  return { open: () => new StreamableHTTPClientTransport(url, { requestInit: { headers } }), name: target.url };
};
