import { describe, expect, it } from 'vitest';
import { AttemptRegistry } from '../../../src/client/attempt-registry.ts';
import type { PolicySession } from '../../../src/client/policy.ts';
import { buildPlan } from '../../../src/plan/plan.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import { type ListedTool, preflight } from '../../../src/run/preflight.ts';
import { toolTraits, traitNotes } from '../../../src/run/tool-traits.ts';

// What server-memory lists (trimmed): annotations as it sends them.
const TOOLS: ListedTool[] = [
  {
    name: 'create_entities',
    inputSchema: {
      type: 'object',
      properties: { entities: { type: 'array' } },
      required: ['entities'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
  { name: 'read_graph', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
  {
    name: 'search_nodes',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer', enum: [5, 10] } },
      required: ['query'],
    },
  },
  { name: 'order_status', inputSchema: { type: 'object', properties: { key: { type: 'string' } } } },
];

/** A session whose server lists TOOLS over two pages. */
function fakeSession(tools: ListedTool[] = TOOLS): PolicySession {
  const listTools = async (params?: { cursor?: string }) =>
    params?.cursor === 'p2' ? { tools: tools.slice(2) } : { tools: tools.slice(0, 2), nextCursor: 'p2' };
  return {
    get: async () => ({
      connection: { client: { listTools, callTool: async () => ({}) } as never, attempts: new AttemptRegistry() },
      generation: 0,
    }),
    renew: async () => {},
  };
}

const profile = (mix: string) =>
  parseProfile(
    'p.yaml',
    `
name: foreign
description: a server we did not write
duration: 1s
target: { kind: stdio, command: node }
workload:
  rate: 5
  mix:
${mix}
`,
  );

async function preflightError(mix: string): Promise<string> {
  try {
    await preflight(profile(mix), fakeSession());
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the preflight to refuse');
}

describe('preflight on a server we did not write', () => {
  it('lists every page of tools and accepts a workload that fits them', async () => {
    const listed = await preflight(
      profile(
        '    - { tool: create_entities, args: { entities: { list: [] } } }\n    - { tool: search_nodes, args: { query: q, limit: 5 } }',
      ),
      fakeSession(),
    );
    expect([...listed.keys()]).toEqual(['create_entities', 'read_graph', 'search_nodes', 'order_status']);
  });

  it('refuses a tool the server does not list, with a did-you-mean', async () => {
    expect(await preflightError('    - { tool: creat_entities }')).toBe(
      'p.yaml: workload.mix[0].tool: the server has no tool "creat_entities" (did you mean "create_entities"?); it lists: create_entities, read_graph, search_nodes, order_status',
    );
    expect(await preflightError('    - { tool: drop_database }')).not.toMatch(/did you mean/);
  });

  it('checks the arguments against the listed inputSchema', async () => {
    expect(await preflightError('    - { tool: create_entities, args: { entity: x, entities: { list: [] } } }')).toBe(
      'p.yaml: workload.mix[0].args.entity: create_entities takes no argument of this name; expected: entities',
    );
    expect(await preflightError('    - { tool: search_nodes }')).toBe(
      'p.yaml: workload.mix[0].args: search_nodes needs query',
    );
    expect(await preflightError('    - { tool: search_nodes, args: { query: 3 } }')).toBe(
      'p.yaml: workload.mix[0].args.query: not a valid query for search_nodes: expected string',
    );
    expect(await preflightError('    - { tool: search_nodes, args: { query: q, limit: { pick: [5, 7] } } }')).toBe(
      'p.yaml: workload.mix[0].args.limit.pick[1]: not a valid limit for search_nodes: expected one of 5, 10',
    );
    // Extra arguments are fine where the schema does not close its properties.
    await expect(
      preflight(profile('    - { tool: search_nodes, args: { query: q, other: 1 } }'), fakeSession()),
    ).resolves.toBeDefined();
  });

  it('refuses a status tool the server does not list', async () => {
    expect(
      await preflightError(
        '    - { tool: create_entities, args: { entities: { list: [] } }, idempotencyKeyArg: key, statusTool: order_stat }',
      ),
    ).toMatch(
      /^p\.yaml: workload\.mix\[0\]\.statusTool: the server has no tool "order_stat" \(did you mean "order_status"\?\)/,
    );
  });

  it('says a server that cannot list its tools in one line', async () => {
    const broken: PolicySession = {
      get: async () => {
        throw new Error('Connection closed');
      },
      renew: async () => {},
    };
    await expect(preflight(profile('    - { tool: read_graph }'), broken)).rejects.toThrow(
      'p.yaml: target: the server did not list its tools (tools/list: Connection closed)',
    );
  });
});

describe('tool traits of a server we did not write', () => {
  const listed = new Map(TOOLS.map((t) => [t.name, t]));

  it('take side effects from the annotations: side-effecting unless readOnlyHint, as MCP defaults', () => {
    const { profile: p } = profile('    - { tool: read_graph }');
    const traits = toolTraits(p, listed);
    const hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
    expect(traits('create_entities')).toEqual({ sideEffecting: true, hints, idempotent: false });
    expect(traits('read_graph')).toEqual({ sideEffecting: false, hints: { readOnlyHint: true } });
    expect(traits('search_nodes')).toEqual({ sideEffecting: true }); // no annotations at all
  });

  it('let the profile override them, with the key argument and a status lookup', () => {
    const { profile: p } = profile(
      '    - { tool: create_entities, sideEffect: false }\n    - { tool: search_nodes, idempotencyKeyArg: key, statusTool: order_status }',
    );
    const traits = toolTraits(p, listed);
    expect(traits('create_entities')).toMatchObject({ sideEffecting: false, idempotent: false });
    expect(traits('search_nodes')).toEqual({
      sideEffecting: true,
      idempotencyArg: 'key',
      keyHonoured: true,
      statusLookup: { tool: 'order_status', keyArg: 'key' },
    });
    expect(traitNotes(p, listed)).toEqual([
      'tool create_entities: read-only (sideEffect in the profile)',
      'tool search_nodes: side-effecting (no annotations), idempotency key in key, status by order_status',
    ]);
  });

  it('keeps the reference tools as the reference server defines them', () => {
    const { profile: p } = parseProfile(
      'p.yaml',
      'name: r\ndescription: d\nworkload:\n  rate: 1\n  mix:\n    - { tool: create_payment, args: { customer_id: c, amount_cents: 1, currency: USD } }\n',
    );
    expect(toolTraits(p)('create_payment')).toMatchObject({ sideEffecting: true, idempotencyArg: 'idempotency_key' });
  });

  it('refuses a status tool without a key argument at load', () => {
    expect(() => profile('    - { tool: search_nodes, statusTool: order_status }')).toThrow(
      /workload\.mix\[0\]\.statusTool: a status lookup asks by idempotency key: set idempotencyKeyArg too/,
    );
  });
});

describe('the unique generator', () => {
  it('gives every op its own value, the same for the same seed and another for another seed', () => {
    const { profile: p } = profile(
      '    - { tool: create_entities, args: { entities: { list: [ { object: { name: { unique: ent- } } } ] } } }',
    );
    const names = (seed: number) => {
      const plan = buildPlan(p, seed, () => {});
      return Array.from(
        { length: plan.ops.count! },
        (_, i) => (plan.ops.at(i).args.entities as { name: string }[])[0].name,
      );
    };
    const a = names(1);
    expect(a[0]).toMatch(/^ent-0-[0-9a-f]{6}$/);
    expect(new Set(a).size).toBe(a.length);
    expect(names(1)).toEqual(a);
    expect(names(2)).not.toEqual(a);
  });
});
