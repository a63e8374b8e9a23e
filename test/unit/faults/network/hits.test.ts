// Network-seam hits, counted by the embedded Toxiproxy itself (never by the client): a toxic that acts on
// traffic counts > 0, one on a proxy without traffic counts 0; `down` counts the live connections it closed; the
// toxic's API JSON stays exactly Toxiproxy's; and without the embedded server's counters the hits are null.
import { afterEach, describe, expect, it } from 'vitest';
import { RandomStream } from '../../../../src/core/random.ts';
import type { FaultContext } from '../../../../src/faults/kind.ts';
import { findFaultKind } from '../../../../src/faults/registry.ts';
import { createNetworkBackend, type NetworkBackend } from '../../../../src/network/index.ts';
import { destroyOpenSockets, dial, roundTrip, startUpstream, type Upstream } from '../../toxiproxy/helpers.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  destroyOpenSockets();
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function linked(): Promise<{ backend: NetworkBackend; port: number; upstream: Upstream }> {
  const upstream = await startUpstream();
  cleanup.push(() => upstream.close());
  const backend = await createNetworkBackend('embedded', { seed: 1 });
  cleanup.push(() => backend.close());
  const { port } = await backend.createProxy('mcp', { port: upstream.port });
  return { backend, port, upstream };
}

async function apply(
  backend: NetworkBackend,
  kind: string,
  params: Record<string, unknown>,
  options: { counters: boolean } = { counters: true },
) {
  const k = findFaultKind('network', kind)!;
  const counters = options.counters ? backend.counters : undefined;
  const env = { network: { api: backend.api, mcpProxy: 'mcp', counters } } as unknown as FaultContext['env'];
  return k.apply(k.params.parse(params), { env, id: `w-${kind}`, random: new RandomStream(1, kind) });
}

describe('network hits (embedded Toxiproxy)', () => {
  it('a latency toxic counts the chunks it delayed; its JSON has no extra field', async () => {
    const { backend, port } = await linked();
    const latency = await apply(backend, 'latency', { latency: 20, stream: 'upstream' });
    const socket = await dial(port);
    await roundTrip(socket, 'one');
    await roundTrip(socket, 'two');
    expect(Object.keys(await backend.api.getToxic('mcp', 'w-latency')).sort()).toEqual([
      'attributes',
      'name',
      'stream',
      'toxicity',
      'type',
    ]);
    await latency.remove();
    expect(await latency.hits()).toBe(2); // read after removal: the count outlives the toxic
  });

  it('a latency toxic on a proxy with no traffic counts 0 (the negative control)', async () => {
    const { backend } = await linked();
    const latency = await apply(backend, 'latency', { latency: 20 });
    await latency.remove();
    expect(await latency.hits()).toBe(0);
  });

  it('reset_peer counts the connection it cut', async () => {
    const { backend, port } = await linked();
    const reset = await apply(backend, 'reset_peer', { timeout: 0, stream: 'upstream' });
    const socket = await dial(port);
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('x');
    await closed;
    expect(await reset.hits()).toBe(1);
  });

  it('down counts the live connections it closed, and 0 with none open', async () => {
    const { backend, port } = await linked();
    const socket = await dial(port);
    await roundTrip(socket, 'hello'); // the connection is up through the proxy
    const down = await apply(backend, 'down', {});
    await down.remove();
    expect(await down.hits()).toBe(1);
    destroyOpenSockets();
    await new Promise((r) => setTimeout(r, 50));
    const idle = await apply(backend, 'down', {});
    await idle.remove();
    expect(await idle.hits()).toBe(0);
  });

  it('without the embedded counters (external, container) the hits are null: cannot count', async () => {
    const { backend, port } = await linked();
    const latency = await apply(backend, 'latency', { latency: 5 }, { counters: false });
    await roundTrip(await dial(port), 'x');
    expect(await latency.hits()).toBeNull();
    const down = await apply(backend, 'down', {}, { counters: false });
    expect(await down.hits()).toBeNull();
    await down.remove();
  });
});
