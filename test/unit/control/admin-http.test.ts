// The admin endpoint is derived from the control-op table: every operation with a route answers there exactly as
// in process, an operation without one is not served, and bad input is a 400 naming the operation.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DependencyWorld } from '../../../mocks/world.ts';
import {
  AdminClient,
  type AdminHttpOptions,
  type AdminHttpServer,
  authorized,
  startAdminHttp,
} from '../../../src/control/admin-http.ts';
import type { OpName } from '../../../src/control/control.ts';
import { CONTROL_OPS } from '../../../src/control/ops/index.ts';
import { LocalControl } from '../../../src/server/control/local-control.ts';
import { ServerRuntime } from '../../../src/server/runtime.ts';

let admin: AdminHttpServer | undefined;
afterEach(async () => {
  await admin?.close();
  admin = undefined;
});

const TOKEN = 'unit-admin-token';

async function setup(options: Partial<AdminHttpOptions> = {}) {
  const world = new DependencyWorld(1);
  const control = new LocalControl({ world, runtime: new ServerRuntime({ dependencyTimeoutMs: 100, leaky: false }) });
  admin = await startAdminHttp(control, { token: TOKEN, ...options });
  return { world, control, client: new AdminClient(admin.url, TOKEN) };
}

/** A valid input for each operation: none, or an empty set. */
function sampleInput(op: OpName): unknown {
  return CONTROL_OPS[op].input.safeParse(undefined).success ? undefined : [];
}

type Call = (op: OpName, input?: unknown) => Promise<unknown>;

/** Fields that are clock readings differ between two calls: any number matches them. */
const CLOCK_FIELDS = new Set(['appliedAtMs', 'idleMs']);
function anyClock(output: unknown): unknown {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return output;
  return Object.fromEntries(Object.entries(output).map(([k, v]) => [k, CLOCK_FIELDS.has(k) ? expect.any(Number) : v]));
}

describe('admin HTTP from the control-op table', () => {
  it('serves every operation that has a route, with the in-process answer (or its refusal)', async () => {
    const { control, client } = await setup();
    const routed = (Object.keys(CONTROL_OPS) as OpName[]).filter((op) => CONTROL_OPS[op].route);
    expect(routed.length).toBeGreaterThanOrEqual(6);
    const refused: OpName[] = [];
    for (const op of routed) {
      const outcome = (call: Call) =>
        call(op, sampleInput(op)).then(
          (output) => ({ output }),
          (error: Error) => ({ error: error.message }),
        );
      const local = await outcome(control.call.bind(control) as Call);
      const remote = await outcome(client.call.bind(client) as Call);
      if ('error' in local) refused.push(op);
      const expected =
        'error' in local ? { error: expect.stringContaining(local.error) } : { output: anyClock(local.output) };
      expect(remote, op).toEqual(expected);
    }
    // No HTTP server in this process: only the behaviour operations refuse.
    expect(refused).toEqual(['setBehaviour', 'behaviourStats']);
  });

  it('a behaviour operation on a server without HTTP (stdio) is a 404 that says why', async () => {
    const { client } = await setup();
    await expect(client.call('behaviourStats')).rejects.toThrow(/HTTP 404.*Streamable HTTP server/);
  });

  it('does not serve an operation without a route, and rejects bad input with a 400 naming the operation', async () => {
    const { world, client } = await setup();
    expect(CONTROL_OPS.sync.route).toBeUndefined();
    const res = await fetch(`${admin!.url}/sync`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    await expect(client.call('setDependencyFaults', [{ id: 'x', kind: 'explode' } as never])).rejects.toThrow(
      /HTTP 400.*invalid setDependencyFaults input/,
    );
    await client.call('setDependencyFaults', [{ id: 'slow', dependency: 'search', kind: 'latency', ms: 5 }]);
    expect(world.faults.list().map((f) => f.id)).toEqual(['slow']);
  });
});

describe('admin HTTP safety', () => {
  it('accepts only the exact bearer token, whatever the length of a wrong one', () => {
    expect(authorized(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    // Same length, one character off; a prefix; a longer one; none; the token without its scheme.
    expect(authorized(`Bearer ${TOKEN.slice(0, -1)}X`, TOKEN)).toBe(false);
    expect(authorized(`Bearer ${TOKEN.slice(0, 4)}`, TOKEN)).toBe(false);
    expect(authorized(`Bearer ${TOKEN}${TOKEN}`, TOKEN)).toBe(false);
    expect(authorized(undefined, TOKEN)).toBe(false);
    expect(authorized(TOKEN, TOKEN)).toBe(false);
  });

  it('answers a body over the size limit with 413 and changes nothing', async () => {
    const { world } = await setup({ bodyLimits: { maxBytes: 1000 } });
    const faults = [{ id: 'big', dependency: 'search', kind: 'latency', ms: 5, pad: 'x'.repeat(2000) }];
    const res = await fetch(`${admin!.url}/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(faults),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'request body too large: more than 1000 bytes' });
    expect(world.faults.list()).toEqual([]);
  });

  it('answers a body that stops arriving with 408 after its time bound, and serves others meanwhile', async () => {
    await setup({ bodyLimits: { timeoutMs: 1000 } });
    const { port } = admin!;
    const started = performance.now();
    const held = new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(
        `PUT /faults HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 100\r\n\r\n[`,
      );
    });
    // The held body delays nobody else.
    const other = await fetch(`${admin!.url}/ledger`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(other.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    const answer = await held;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('request body not received within 1000 ms');
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });
});
