// Random sequences of API requests (proxies and toxics created, changed and deleted, valid and not, malformed
// bodies among them) sent to the embedded server and to a real Toxiproxy (TOXIPROXY_URL) one by one: every answer's
// status, content type and body must be the same, listen ports aside. Against a real 2.12.0 it found three
// differences the contract tests had not: a toxicity held as a double where Go holds a float32, a body with
// trailing bytes refused where json.Decoder ignores them, and JSON syntax errors in JavaScript's words.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedToxiproxy, startEmbeddedToxiproxy } from '../../../src/toxiproxy/server.ts';

const realUrl = process.env.TOXIPROXY_URL?.replace(/\/+$/, '');
const skip = realUrl ? undefined : 'TOXIPROXY_URL not set: no real Toxiproxy to compare against';

/** This file's proxy names on the shared real server: a prefix of its own (see OwnedProxies). */
const prefix = `diff-${process.pid}-`;
const NAMES = ['a', 'b'].map((n) => prefix + n);
const UNKNOWN = `${prefix}none`;

type Request = [method: string, path: string, body?: string];

const toxicity = fc.constantFrom(0, 0.25, 0.5, 1, 1 / 3, -0.5, 1.5, 0.1);
const attribute = fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.constantFrom('x', null, 0.5, -1, 2.5, true));
const attributes = fc.dictionary(
  fc.constantFrom('latency', 'jitter', 'rate', 'delay', 'timeout', 'bytes', 'average_size', 'size_variation'),
  attribute,
  { maxKeys: 3 },
);
const proxy = fc.constantFrom(...NAMES, UNKNOWN);
const toxicName = fc.option(fc.constantFrom('t1', 't2', 'latency_downstream', ''));
const request: fc.Arbitrary<Request> = fc.oneof(
  fc
    .record({ name: fc.constantFrom(...NAMES, ''), upstream: fc.constantFrom('127.0.0.1:9', 'nohost', '') })
    .map(
      ({ name, upstream }): Request => ['POST', '/proxies', JSON.stringify({ name, upstream, listen: '127.0.0.1:0' })],
    ),
  fc
    .record({
      name: proxy,
      enabled: fc.option(fc.boolean()),
      upstream: fc.option(fc.constantFrom('127.0.0.1:9', '127.0.0.1:10')),
    })
    .map(
      ({ name, enabled, upstream }): Request => [
        'PATCH',
        `/proxies/${name}`,
        JSON.stringify({ ...(enabled !== null && { enabled }), ...(upstream !== null && { upstream }) }),
      ],
    ),
  proxy.map((name): Request => ['DELETE', `/proxies/${name}`]),
  fc
    .record({
      name: proxy,
      type: fc.constantFrom(
        'latency',
        'bandwidth',
        'slow_close',
        'timeout',
        'reset_peer',
        'slicer',
        'limit_data',
        'noop',
        'bogus',
      ),
      toxic: toxicName,
      stream: fc.option(fc.constantFrom('upstream', 'downstream', 'DownStream', 'sideways')),
      toxicity: fc.option(toxicity),
      attributes,
    })
    .map(
      ({ name, type, toxic, stream, toxicity, attributes }): Request => [
        'POST',
        `/proxies/${name}/toxics`,
        JSON.stringify({
          type,
          ...(toxic !== null && { name: toxic }),
          ...(stream !== null && { stream }),
          ...(toxicity !== null && { toxicity }),
          attributes,
        }),
      ],
    ),
  fc
    .record({
      name: proxy,
      toxic: fc.constantFrom('t1', 'latency_downstream'),
      toxicity: fc.option(toxicity),
      attributes,
    })
    .map(
      ({ name, toxic, toxicity, attributes }): Request => [
        'PATCH',
        `/proxies/${name}/toxics/${toxic}`,
        JSON.stringify({ ...(toxicity !== null && { toxicity }), attributes }),
      ],
    ),
  fc
    .record({ name: proxy, toxic: fc.constantFrom('t1', 'latency_downstream') })
    .map(({ name, toxic }): Request => ['DELETE', `/proxies/${name}/toxics/${toxic}`]),
  fc.record({ name: proxy }).map(({ name }): Request => ['GET', `/proxies/${name}`]),
  fc
    .record({
      method: fc.constantFrom('POST', 'PATCH', 'PUT'),
      path: fc.constantFrom('/proxies', `/proxies/${NAMES[0]}`, `/proxies/${NAMES[0]}/toxics`),
      body: fc.constantFrom('', '{', '[1,]', 'null', '{}', '[]', '{"enabled":"yes"}', `{"name":"${NAMES[1]}"} x`),
    })
    .map(({ method, path, body }): Request => [method, path, body]),
);

describe.skipIf(skip)(`embedded and real Toxiproxy answer alike${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let embedded: EmbeddedToxiproxy;
  beforeAll(async () => {
    embedded = await startEmbeddedToxiproxy({ seed: 3 });
  });
  const clear = async (url: string) => {
    for (const name of [...NAMES, UNKNOWN]) await fetch(`${url}/proxies/${name}`, { method: 'DELETE' });
  };
  afterAll(async () => {
    if (realUrl) await clear(realUrl);
    await embedded?.close();
  });

  const answer = async (url: string, [method, path, body]: Request) => {
    const response = await fetch(url + path, { method, body });
    const text = (await response.text()).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
    return `${response.status} ${response.headers.get('content-type')} ${text}`;
  };

  it('every answer to 150 random sequences of up to 12 requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 12 }), async (requests) => {
        await clear(embedded.url);
        await clear(realUrl!);
        for (const r of requests) {
          expect(await answer(embedded.url, r), r.join(' ')).toBe(await answer(realUrl!, r));
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
