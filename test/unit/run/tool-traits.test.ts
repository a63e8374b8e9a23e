import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../src/profile/load.ts';
import type { ListedTool } from '../../../src/run/preflight.ts';
import { toolTraits } from '../../../src/run/tool-traits.ts';

// A server that is not the reference one but names a tool like it: the name must not bring the reference traits.
const profileWith = (target: string) =>
  parseProfile(
    'p.yaml',
    `name: same-names
description: tools named like the reference ones
duration: 1s
target: ${target}
workload:
  rate: 1
  mix:
    - { tool: create_payment, args: { customer_id: c, amount_cents: 1, currency: EUR } }
`,
  ).profile;

const listed = (hints: ListedTool['annotations']) =>
  new Map<string, ListedTool>([['create_payment', { name: 'create_payment', inputSchema: {}, annotations: hints }]]);

describe('tool traits of a url target', () => {
  it('without the reference admin endpoint: only the annotations, no reference idempotency key or status lookup', () => {
    const profile = profileWith('{ kind: url, url: "http://127.0.0.1:3001/mcp" }');
    expect(toolTraits(profile, listed({ readOnlyHint: true }))('create_payment')).toEqual({
      sideEffecting: false,
      hints: { readOnlyHint: true },
    });
    expect(toolTraits(profile, listed({ readOnlyHint: false }))('create_payment')).toEqual({
      sideEffecting: true,
      hints: { readOnlyHint: false },
    });
    expect(toolTraits(profile, new Map())('create_payment')).toEqual({ sideEffecting: true });
  });

  it('with the admin endpoint (the reference server run elsewhere): the reference traits (positive control)', () => {
    const profile = profileWith('{ kind: url, url: "http://127.0.0.1:3001/mcp", admin: "http://127.0.0.1:3002" }');
    const traits = toolTraits(profile, listed({ readOnlyHint: true }))('create_payment');
    expect(traits.sideEffecting).toBe(true);
    expect(traits.idempotencyArg).toBe('idempotency_key');
    expect(traits.statusLookup?.tool).toBe('get_payment_status');
    expect(traits.keyHonoured).toBe(true);
    expect(traits.hints).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
  });
});

describe('replay traits', () => {
  const foreign = (item: string) =>
    parseProfile(
      'p.yaml',
      `name: replay-traits
duration: 1s
target: { kind: url, url: "http://127.0.0.1:3001/mcp" }
workload:
  rate: 1
  mix:
    - { tool: put, ${item} }
`,
    ).profile;
  const put = (hints: ListedTool['annotations']) =>
    new Map<string, ListedTool>([['put', { name: 'put', inputSchema: {}, annotations: hints }]]);

  it("another server's key is honoured only when the profile names idempotencyKeyArg", () => {
    expect(toolTraits(foreign('args: {}'), put({}))('put').keyHonoured).toBeUndefined();
    const keyed = toolTraits(foreign('idempotencyKeyArg: request_id'), put({}))('put');
    expect(keyed).toMatchObject({ idempotencyArg: 'request_id', keyHonoured: true });
  });

  it("idempotent: the tool's idempotentHint, overridden by the profile", () => {
    expect(toolTraits(foreign('args: {}'), put({ idempotentHint: true }))('put').idempotent).toBe(true);
    expect(toolTraits(foreign('idempotent: false'), put({ idempotentHint: true }))('put').idempotent).toBe(false);
    expect(toolTraits(foreign('idempotent: true'), put({}))('put').idempotent).toBe(true);
    expect(toolTraits(foreign('args: {}'), put({}))('put').idempotent).toBeUndefined();
  });
});
