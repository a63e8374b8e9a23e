// `faultline server --protocol legacy|modern|both`: each era's real SDK client (1.32 for 2025-11-25, 2.4 pinned to
// 2026-07-28) lists the tools and makes a payment where the server answers its era, and is refused where it does
// not; `both` answers each client in the era it asked for. The effects land in the one ledger either way.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/control/admin-http.ts';
import { MODERN_VERSION } from '../../src/core/pairing.ts';
import { type Serving, serveCli } from '../helpers/serve.ts';

const TOKEN = 'server-protocol-test';
const servers: Serving[] = [];
afterAll(() => Promise.all(servers.map((s) => s.stop())));

async function serve(protocol: string) {
  const serving = await serveCli(
    ['server', '--protocol', protocol, '--admin-port', '0', '--admin-token', TOKEN],
    [/MCP endpoint (\S+)/, /control API (\S+)/],
  );
  servers.push(serving);
  const [mcp, admin] = serving.urls;
  return { mcp: new URL(mcp), admin: new AdminClient(admin, TOKEN) };
}

const pay = { name: 'create_payment', arguments: { customer_id: 'cus_era', amount_cents: 500, currency: 'EUR' } };

/** The era's client: the tools it lists and the protocol it speaks, or the error that refused it. */
async function tryEra(
  era: 'legacy' | 'modern',
  url: URL,
): Promise<{ version?: string; tools?: number; error?: string }> {
  const client =
    era === 'legacy'
      ? new LegacyClient({ name: 'era-test', version: '1' })
      : new ModernClient({ name: 'era-test', version: '1' }, { versionNegotiation: { mode: { pin: MODERN_VERSION } } });
  const transport = era === 'legacy' ? new LegacyTransport(url) : new ModernTransport(url);
  try {
    await client.connect(transport as never, { timeout: 10_000 });
    const { tools } = await client.listTools();
    const paid = await client.callTool({ ...pay, arguments: { ...pay.arguments, idempotency_key: `key-${era}` } });
    if (paid.isError) throw new Error(`create_payment: ${JSON.stringify(paid.content)}`);
    const version = client instanceof ModernClient ? client.getNegotiatedProtocolVersion() : transport.protocolVersion;
    return { version, tools: tools.length };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.close().catch(() => {});
  }
}

describe('faultline server --protocol', () => {
  it.each([
    ['legacy', { legacy: true, modern: false }],
    ['modern', { legacy: false, modern: true }],
    ['both', { legacy: true, modern: true }],
  ] as const)('%s answers exactly the eras it serves, each payment one effect', async (protocol, answers) => {
    const server = await serve(protocol);
    const legacy = await tryEra('legacy', server.mcp);
    const modern = await tryEra('modern', server.mcp);
    for (const [era, result] of [
      ['legacy', legacy],
      ['modern', modern],
    ] as const) {
      if (answers[era]) {
        expect(result.error, `${protocol} server, ${era} client`).toBeUndefined();
        expect(result.tools).toBeGreaterThan(0);
      } else {
        expect(result.error, `${protocol} server refuses a ${era} client`).toBeDefined();
      }
    }
    if (answers.modern) expect(modern.version).toBe(MODERN_VERSION);
    if (answers.legacy) expect(legacy.version).not.toBe(MODERN_VERSION);
    const keys = (await server.admin.call('ledger')).map((e) => e.idempotencyKey).sort();
    const served = (['legacy', 'modern'] as const).filter((era) => answers[era]);
    expect(keys).toEqual(served.map((era) => `key-${era}`));
  });

  it('refuses an unknown era in one line, exit 2', async () => {
    const { runCli } = await import('../helpers/cli.ts');
    const result = await runCli(['server', '--protocol', 'v3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--protocol.*legacy, modern, both/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
