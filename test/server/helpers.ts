// Shared test plumbing: start server children and SDK clients, and clean all of them up after each test.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import { type ToolError, toolErrorOf } from '../../src/core/taxonomy.ts';
import { TRACE_META_KEY } from '../../src/core/wire.ts';
import { ServerHandle, type ServerOptions } from '../../src/targets/child-target.ts';

const handles: ServerHandle[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.allSettled(handles.splice(0).map((h) => h.stop()));
});

export async function startServer(opts: Partial<ServerOptions> = {}): Promise<ServerHandle> {
  const handle = await ServerHandle.start({ seed: 7, ...opts });
  handles.push(handle);
  return handle;
}

export const FAST_RECONNECT = {
  initialReconnectionDelay: 100,
  maxReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 5,
};

export async function connect(
  url: string,
  opts: StreamableHTTPClientTransportOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { reconnectionOptions: FAST_RECONNECT, ...opts });
  const client = new Client({ name: 'faultline-test', version: '0.0.0' });
  client.onerror = () => undefined;
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  opts: { traceId?: string; timeout?: number; signal?: AbortSignal } = {},
): Promise<CallToolResult> {
  return (await client.callTool(
    { name, arguments: args, ...(opts.traceId && { _meta: { [TRACE_META_KEY]: opts.traceId } }) },
    undefined,
    { timeout: opts.timeout ?? 15_000, signal: opts.signal },
  )) as CallToolResult;
}

/** The structured ToolError of an isError result; fails the test when there is none. */
export function errorOf(result: CallToolResult): ToolError {
  const error = toolErrorOf(result);
  if (!error) throw new Error(`expected a structured tool error, got ${JSON.stringify(result).slice(0, 500)}`);
  return error;
}

let counter = 0;
export function key(prefix = 'key'): string {
  counter++;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

export function payment(idempotencyKey: string, amount = 1250) {
  return { customer_id: 'cus_4711', amount_cents: amount, currency: 'USD', idempotency_key: idempotencyKey };
}

/** Waits until `ready()` holds (checked every 25 ms) or `limitMs` passes: a condition to wait for, not a sleep. */
export async function waitFor(ready: () => boolean | Promise<boolean>, limitMs = 8000): Promise<void> {
  for (const end = Date.now() + limitMs; !(await ready()) && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 25));
}
