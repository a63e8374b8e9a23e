// Unlike real Toxiproxy (whose -seed does nothing since 2.9), the embedded server draws toxicity, jitter and
// slicer sizes from its seed: the same seed and the same sequence of connections give the same decisions.
import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../src/core/history.ts';
import { type EmbeddedToxiproxy, startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';
import {
  addToxic,
  collect,
  createProxy,
  destroyOpenSockets,
  dial,
  roundTrip,
  startUpstream,
  type Upstream,
} from './helpers.ts';

const running: { servers: EmbeddedToxiproxy[]; upstreams: Upstream[] } = { servers: [], upstreams: [] };

afterEach(async () => {
  destroyOpenSockets();
  await Promise.all(running.servers.splice(0).map((server) => server.close()));
  await Promise.all(running.upstreams.splice(0).map((upstream) => upstream.close()));
});

/** Three connections, four round trips each, through a jittery 50 %-toxicity latency and a slicer. */
async function scenario(seed: number): Promise<DecisionRecord[]> {
  const decisions: DecisionRecord[] = [];
  const server = await startEmbeddedToxiproxy({ seed, onDecision: (decision) => decisions.push(decision) });
  running.servers.push(server);
  const echo = await startUpstream();
  running.upstreams.push(echo);
  const port = await createProxy(server.url, 'svc', echo.port);
  await addToxic(server.url, 'svc', { type: 'latency', toxicity: 0.5, attributes: { latency: 5, jitter: 4 } });
  await addToxic(server.url, 'svc', {
    type: 'slicer',
    stream: 'upstream',
    attributes: { average_size: 8, size_variation: 4, delay: 0 },
  });
  for (let connection = 0; connection < 3; connection++) {
    const socket = await dial(port);
    for (let i = 0; i < 4; i++) await roundTrip(socket, 'x'.repeat(64));
    const closed = collect(socket);
    socket.end();
    await closed;
  }
  return decisions;
}

describe('seeded draws of the embedded server', () => {
  it('replays the same toxicity, jitter and slice decisions for the same seed', async () => {
    const first = await scenario(7);
    const second = await scenario(7);
    expect(first.length).toBeGreaterThan(10);
    expect(new Set(first.map((decision) => decision.what))).toEqual(new Set(['toxicity', 'jitter', 'slice']));
    expect(second).toEqual(first);
    // Streams are named by proxy, connection ordinal, direction and toxic.
    expect(first.map((decision) => decision.stream)).toContain('toxiproxy/svc/c2/downstream/latency_downstream');
  });

  it('draws differently for another seed', async () => {
    const first = await scenario(7);
    // Not 8: src/plan/random.ts's streamSeed XORs the seed into the FNV basis and then hashes its own digits, so
    // every single-digit seed yields the same streams (7 ^ '7' === 8 ^ '8'). Reported; not this module's file.
    const other = await scenario(1001);
    expect(other.map((decision) => decision.value)).not.toEqual(first.map((decision) => decision.value));
  });

  it('draws toxicity per connection: with toxicity 0.5 some connections get the toxic and some do not', async () => {
    const decisions = await scenario(7);
    const draws = decisions.filter(
      (decision) => decision.what === 'toxicity' && decision.stream.endsWith('latency_downstream'),
    );
    expect(draws).toHaveLength(3);
    const jittered = new Set(
      decisions.filter((decision) => decision.what === 'jitter').map((decision) => decision.stream),
    );
    const hit = draws.filter((decision) => decision.value === true).map((decision) => decision.stream);
    expect([...jittered].sort()).toEqual(hit.sort());
  });
});
