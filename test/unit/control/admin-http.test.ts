// The admin endpoint is derived from the control-op table: every operation with a route answers there exactly as
// in process, an operation without one is not served, and bad input is a 400 naming the operation.
import { afterEach, describe, expect, it } from 'vitest';
import { DependencyWorld } from '../../../mocks/world.ts';
import { AdminClient, type AdminHttpServer, startAdminHttp } from '../../../src/control/admin-http.ts';
import { LocalControl, type OpName } from '../../../src/control/control.ts';
import { CONTROL_OPS } from '../../../src/control/ops/index.ts';
import { ServerRuntime } from '../../../src/server/runtime.ts';

let admin: AdminHttpServer | undefined;
afterEach(async () => {
  await admin?.close();
  admin = undefined;
});

const TOKEN = 'unit-admin-token';

async function setup() {
  const world = new DependencyWorld(1);
  const control = new LocalControl({ world, runtime: new ServerRuntime({ dependencyTimeoutMs: 100, leaky: false }) });
  admin = await startAdminHttp(control, { token: TOKEN });
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
