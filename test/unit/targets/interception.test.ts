// Dependency interception (effects.intercept): which requests a URL pattern takes, what the profile admits, and
// the collector's side of the side channel, driven by a stand-in preload over real loopback TCP: faults pushed to
// every live process (and their application awaited), effects acknowledged and attributed by op key values, a
// process that never loaded the preload leaving the effects unknown.
import { createConnection, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CollectorMessage,
  INTERCEPT_ENV,
  interceptedBy,
  type PreloadMessage,
} from '../../../src/core/intercept-wire.ts';
import { foreignEffectKey } from '../../../src/core/ledger.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import { Interception } from '../../../src/targets/interception.ts';

describe('interceptedBy', () => {
  const deps = [{ url: 'http://127.0.0.1:*/charge', method: 'POST' }, { url: 'https://api.example.test/v1/*' }];
  it('matches a port or path segment by *, ignores the query, and keeps the method and the segment boundaries', () => {
    expect(interceptedBy(deps, 'POST', 'http://127.0.0.1:4567/charge?x=1')).toBe(deps[0]);
    expect(interceptedBy(deps, 'GET', 'http://127.0.0.1:4567/charge')).toBeUndefined();
    expect(interceptedBy(deps, 'POST', 'http://127.0.0.1:4567/charge/extra')).toBeUndefined();
    expect(interceptedBy(deps, 'GET', 'https://api.example.test/v1/items')).toBe(deps[1]);
    expect(interceptedBy(deps, 'GET', 'https://api.example.test/v1/items/2')).toBeUndefined();
    expect(interceptedBy(deps, 'POST', 'http://127.0.0.1:4567/refund')).toBeUndefined();
  });
});

const profileWith = (effects: string, target = '{ kind: stdio, command: node, args: [server.js] }', faults = '') => `
name: intercepted
description: a Node server we did not write
duration: 2s
target: ${target}
workload:
  rate: 5
  mix:
    - { tool: charge, sideEffect: true, args: { reference: "r-{op}" } }
effects:
${effects}
${faults ? `faults:\n${faults}` : ''}
`;
const INTERCEPT =
  '  keys: { charge: reference }\n  intercept: { dependencies: [{ url: "http://127.0.0.1:*/charge" }] }';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('effects.intercept in a profile', () => {
  it('gives a stdio target dependency faults (every intercepted dependency), and nothing else', () => {
    const status = '  - { seam: dependency, kind: status, status: 503, start: 1s }';
    expect(parseProfile('p.yaml', profileWith(INTERCEPT, undefined, status)).profile.faults).toHaveLength(1);
    const named = '  - { seam: dependency, kind: status, dependency: payments, status: 503, start: 1s }';
    expect(messageOf(() => parseProfile('p.yaml', profileWith(INTERCEPT, undefined, named)))).toMatch(
      /faults\[0\]\.dependency: expected \* \(every intercepted dependency\)/,
    );
    const noIntercept = '  keys: { charge: reference }\n  readBack: [{ tool: list, path: "items[*]" }]';
    expect(messageOf(() => parseProfile('p.yaml', profileWith(noIntercept, undefined, status)))).toMatch(
      /fault kind status needs .*target kind stdio cannot take it/,
    );
  });

  it('refuses intercept beside readBack, on an http target, and a URL that is not http(s)', () => {
    const both = `${INTERCEPT}\n  readBack: [{ tool: list, path: "items[*]" }]`;
    expect(messageOf(() => parseProfile('p.yaml', profileWith(both)))).toMatch(
      /readBack probes or intercept, not both/,
    );
    expect(
      messageOf(() => parseProfile('p.yaml', profileWith(INTERCEPT, '{ kind: http, url: "http://127.0.0.1:1/mcp" }'))),
    ).toMatch(/effects\.intercept: expected a target of kind stdio/);
    const ftp = '  keys: { charge: reference }\n  intercept: { dependencies: [{ url: "ftp://x/charge" }] }';
    expect(messageOf(() => parseProfile('p.yaml', profileWith(ftp)))).toMatch(/expected an http\(s\) URL pattern/);
  });
});

/** A stand-in for the preload: connects where childEnv says, speaks the wire, applies and acks. */
class FakePreload {
  readonly socket: Socket;
  readonly faults: unknown[][] = [];
  private readonly acks = new Map<number, () => void>();

  constructor(env: Record<string, string>, answerFaults = true) {
    const config = JSON.parse(env[INTERCEPT_ENV]);
    this.socket = createConnection(config.collector);
    createInterface({ input: this.socket }).on('line', (line) => {
      const message = JSON.parse(line) as CollectorMessage;
      if (message.type === 'ack') return this.acks.get(message.n)?.();
      this.faults.push(message.faults);
      if (answerFaults) this.send({ type: 'applied', version: message.version });
    });
    this.send({ type: 'hello', pid: 1 });
  }

  send(message: PreloadMessage): void {
    this.socket.write(`${JSON.stringify(message)}\n`);
  }

  effect(n: number, url: string, body: string): Promise<void> {
    const acked = new Promise<void>((resolve) => this.acks.set(n, resolve));
    this.send({ type: 'effect', n, request: { method: 'POST', url, status: 200, body } });
    return acked;
  }
}

/** No bundle built here (unit lane: no child processes, esbuild is one). */
const PRELOAD = () => '/faultline/intercept-preload.mjs';

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('Interception (the collector)', () => {
  let interception: Interception;
  afterEach(() => interception.close());

  it('hands a new process the current faults, pushes changes to every live one and resolves once they applied', async () => {
    interception = new Interception([{ url: 'http://127.0.0.1:*/charge' }], 1, () => [], PRELOAD);
    await interception.start();
    const env = interception.childEnv({ NODE_OPTIONS: '--max-old-space-size=256' });
    expect(env.NODE_OPTIONS).toMatch(
      /^--max-old-space-size=256 --import "file:\/\/\/faultline\/intercept-preload.mjs"$/,
    );
    expect(await interception.push([{ id: 'w1', kind: 'status', status: 503, dependency: '*' }])).toBeUndefined();
    const a = new FakePreload(env);
    const b = new FakePreload(env);
    await until(() => a.faults.length === 1 && b.faults.length === 1);
    expect(a.faults[0]).toEqual([{ id: 'w1', kind: 'status', status: 503, dependency: '*' }]);
    const appliedAt = await interception.push([]);
    expect(typeof appliedAt).toBe('number');
    expect(a.faults.at(-1)).toEqual([]);
    expect(b.faults.at(-1)).toEqual([]);
    a.send({ type: 'hits', hits: { w1: 3 } });
    b.send({ type: 'hits', hits: { w1: 2 } });
    await until(() => interception.hits().w1 === 5);
    expect(interception.hits()).toEqual({ w1: 5 });
    // Both processes crash: once the collector saw them go (a push finds no live process), their hits still count.
    a.socket.destroy();
    b.socket.destroy();
    let pushed: number | undefined = 0;
    for (let i = 0; i < 100 && pushed !== undefined; i++) pushed = await interception.push([]);
    expect(pushed).toBeUndefined();
    expect(interception.hits()).toEqual({ w1: 5 });
  });

  it('acknowledges each effect and attributes it by the longest op key value in its URL or body', async () => {
    interception = new Interception([{ url: 'http://127.0.0.1:*/charge' }], 1, () => ['r-1', 'r-10', 'r-2'], PRELOAD);
    await interception.start();
    const p = new FakePreload(interception.childEnv({}));
    await p.effect(1, 'http://127.0.0.1:9/charge', '{"reference":"r-10"}');
    await p.effect(2, 'http://127.0.0.1:9/charge?ref=r-2', '');
    await p.effect(3, 'http://127.0.0.1:9/charge', '{"reference":"someone-else"}');
    const effects = await interception.effects();
    expect(interception.failure).toBeUndefined();
    expect(effects.map((e) => e.details?.key)).toEqual(['r-10', 'r-2', undefined]);
    expect(effects[0].argsKey).toBe(foreignEffectKey('r-10'));
    expect(effects.every((e) => e.kind === 'intercepted')).toBe(true);
    await interception.reset();
    expect(await interception.effects()).toEqual([]);
  });

  it('with no process that loaded the preload, the effects are unknown, not none', async () => {
    interception = new Interception([{ url: 'http://127.0.0.1:*/charge' }], 1, () => [], PRELOAD);
    await interception.start();
    expect(await interception.effects()).toEqual([]);
    expect(interception.failure).toMatch(/no server process loaded the preload/);
  });
});
