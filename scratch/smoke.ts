import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startReferenceServer } from '../src/server/reference-server.ts';

for (const [fe, mode] of [
  ['sdk2', { pin: '2026-07-28' }],
  ['dual', 'auto'],
  ['dual', 'legacy'],
] as const) {
  const s = await startReferenceServer({ seed: 1, frontEnd: fe as any });
  const c = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: mode as any } });
  const t = new StreamableHTTPClientTransport(new URL(s.http.url));
  await c.connect(t);
  console.log(fe, JSON.stringify(mode), c.getProtocolEra(), c.getNegotiatedProtocolVersion());
  const tools = await c.listTools();
  console.log(tools.tools.map((t) => t.name).join(','));
  const r = await c.callTool(
    {
      name: 'create_payment',
      arguments: { customer_id: 'cus_1', amount_cents: 100, currency: 'USD', idempotency_key: 'k1' },
      _meta: { 'faultline/traceId': 'op1' },
    },
    { onprogress: (p) => console.log('progress', p) },
  );
  console.log(JSON.stringify(r).slice(0, 300));
  const bad = await c.callTool({ name: 'create_payment', arguments: { customer_id: 'cus_1' } });
  console.log(JSON.stringify(bad).slice(0, 200));
  await c
    .callTool({ name: 'nope', arguments: {} })
    .catch((e) => console.log('unknown:', e.constructor.name, e.code, e.message, JSON.stringify(e.data)));
  console.log('effects', s.world.ledger?.effects?.length ?? Object.keys(s.world));
  await c.close();
  await s.close();
}
