// Read-back probes: keys found in a result (by path or module) become effects under the argsKey their op's
// unique argument value gives, and reconcile attributes them; a failed read leaves the effects unknown.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { OpRecord } from '../../../src/core/history.ts';
import { effectsSchema } from '../../../src/profile/effects-schema.ts';
import { opEffectKey, ReadBackError, ReadBackSource } from '../../../src/run/read-back.ts';
import { fed, history as run } from '../measure/fixtures.ts';

// Modules resolve against the profile file: the example's list-files.ts sits next to this (imaginary) profile.
const PROFILE = new URL('../../../examples/byo-servers/profile.yaml', import.meta.url).pathname;

const memory = effectsSchema.parse({
  keys: { create_entities: 'entities[0].name' },
  readBack: [{ tool: 'read_graph', path: 'entities[*].name' }],
});

const graphResult = (names: string[]): CallToolResult => ({
  content: [{ type: 'text', text: 'ignored' }],
  structuredContent: { entities: names.map((name) => ({ name, entityType: 't', observations: [] })), relations: [] },
});

const op = (n: number, outcome: OpRecord['outcome']): OpRecord =>
  ({
    opId: `op-${n}`,
    tool: 'create_entities',
    outcome,
    sideEffecting: true,
    attempts: 1,
    startMs: 0,
    endMs: 1,
    argsKey: opEffectKey(memory, 'create_entities', { entities: [{ name: `e-${n}` }] }),
  }) as OpRecord;

describe('read-back probes', () => {
  it("an op's key is its argument's value; other tools have none", () => {
    expect(opEffectKey(memory, 'create_entities', { entities: [{ name: 'e-1' }] })).toBe(op(1, 'ok').argsKey);
    expect(opEffectKey(memory, 'create_entities', { entities: [{ name: 'e-2' }] })).not.toBe(op(1, 'ok').argsKey);
    expect(opEffectKey(memory, 'read_graph', {})).toBeUndefined();
    expect(opEffectKey(memory, 'create_entities', { entities: [] })).toBeUndefined();
    expect(opEffectKey(undefined, 'create_entities', { entities: [{ name: 'e-1' }] })).toBeUndefined();
  });

  it('found keys feed reconcile: lost, ghost and duplicate by read-back', async () => {
    // e-1 ok and present; e-2 ok and missing (lost); e-3 failed but present (ghost); e-4 present twice (duplicate)
    const calls: string[] = [];
    const source = new ReadBackSource(memory, PROFILE, async (tool) => {
      calls.push(tool);
      return graphResult(['e-1', 'e-3', 'e-4', 'e-4']);
    });
    const effects = await source.effects();
    expect(calls).toEqual(['read_graph']);
    expect(effects.map((e) => e.details?.key)).toEqual(['e-1', 'e-3', 'e-4', 'e-4']);
    expect(effects.every((e) => e.kind === 'read-back')).toBe(true);
    const r = fed(run({ ops: [op(1, 'ok'), op(2, 'ok'), op(3, 'fail'), op(4, 'ok')], effects })).effects;
    expect(r.reconciliation.lostOps).toEqual(['op-2']);
    expect(r.reconciliation.ghostOps).toEqual(['op-3']);
    expect(r.reconciliation.duplicateOps).toEqual(['op-4']);
    expect(r.unattributedEffects).toBe(0);
    expect(r.reconciliation.byArgsKey).toBe(4);
  });

  it('a key that matches no op is unattributed (pre-existing state shows, it is not dropped)', async () => {
    const source = new ReadBackSource(memory, PROFILE, async () => graphResult(['e-1', 'stranger']));
    expect(fed(run({ ops: [op(1, 'ok')], effects: await source.effects() })).effects.unattributedEffects).toBe(1);
  });

  it('falls back to the text content as JSON; text that is not JSON is a failed read, not zero effects', async () => {
    const json = new ReadBackSource(memory, PROFILE, async () => ({
      content: [{ type: 'text', text: JSON.stringify({ entities: [{ name: 'e-1' }] }) }],
    }));
    expect((await json.effects()).map((e) => e.details?.key)).toEqual(['e-1']);
    expect(json.failure).toBeUndefined();
    const text = new ReadBackSource(memory, PROFILE, async () => ({ content: [{ type: 'text', text: 'hello' }] }));
    expect(await text.effects()).toEqual([]);
    expect(text.failure).toMatch(/no structuredContent and its text is not JSON; use a module/);
  });

  it('a probe that answers an error or throws leaves the effects unknown', async () => {
    const error = new ReadBackSource(memory, PROFILE, async () => ({
      isError: true,
      content: [{ type: 'text', text: 'Access denied' }],
    }));
    expect(await error.effects()).toEqual([]);
    expect(error.failure).toMatch(/read_graph answered an error: Access denied/);
    const down = new ReadBackSource(memory, PROFILE, async () => {
      throw new Error('Connection closed');
    });
    await down.effects();
    expect(down.failure).toMatch(/Connection closed/);
  });

  it('a module maps what a path cannot (text listings), relative to the profile file', async () => {
    const spec = effectsSchema.parse({
      keys: { write_file: 'path' },
      readBack: [{ tool: 'list_directory', args: { path: '.' }, module: './list-files.ts' }],
    });
    const seen: Record<string, unknown>[] = [];
    const source = new ReadBackSource(spec, PROFILE, async (_tool, args) => {
      seen.push(args);
      return { content: [{ type: 'text', text: '[FILE] f-1.txt\n[DIR] sub\n[FILE] f-2.txt' }] };
    });
    expect((await source.effects()).map((e) => e.details?.key)).toEqual(['f-1.txt', 'f-2.txt']);
    expect(seen).toEqual([{ path: '.' }]);
    const missing = effectsSchema.parse({ ...spec, readBack: [{ tool: 'x', module: './nope.ts' }] });
    expect(() => new ReadBackSource(missing, PROFILE, async () => ({ content: [] }))).toThrow(ReadBackError);
  });

  it('the schema refuses a bad path and a probe with both or neither of path and module', () => {
    const bad = (readBack: unknown, keys: unknown = { t: 'a' }) => effectsSchema.safeParse({ keys, readBack });
    expect(bad([{ tool: 'r', path: 'a[x]' }]).error?.issues[0].message).toMatch(/unexpected "\[x\]"/);
    expect(bad([{ tool: 'r' }]).error?.issues[0].message).toBe('expected exactly one of path or module');
    expect(bad([{ tool: 'r', path: 'a', module: 'm.ts' }]).success).toBe(false);
    expect(bad([{ tool: 'r', path: 'a' }], {}).success).toBe(false);
    expect(bad([{ tool: 'r', path: 'a' }]).success).toBe(true);
  });
});
