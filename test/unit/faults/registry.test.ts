// The fault registry: every kind is self-describing (summary, what it needs, parameters with their meaning and
// unit), each seam's kinds are derived from their one source, and no kind name repeats.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FAULT_KINDS } from '../../../mocks/faults/registry.ts';
import { FAULTS, findFaultKind } from '../../../src/faults/registry.ts';
import { BEHAVIOURS } from '../../../src/server/behaviours/index.ts';
import { toxicKinds } from '../../../src/toxiproxy/toxics/index.ts';
import { CAPABILITY_WORDS } from '../../../src/under-test/target.ts';

const names = (seam: string) => FAULTS.filter((f) => f.seam === seam).map((f) => f.kind);

describe('fault registry', () => {
  it('every kind has a summary, declared needs from the target vocabulary, and a unique seam/kind', () => {
    for (const kind of FAULTS) {
      expect(kind.summary.length, kind.kind).toBeGreaterThan(10);
      expect(kind.needs.length, kind.kind).toBeGreaterThan(0);
      for (const need of kind.needs) expect(Object.keys(CAPABILITY_WORDS)).toContain(need);
    }
    const ids = FAULTS.map((f) => `${f.seam}/${f.kind}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every parameter says what it means (units in the description)', () => {
    for (const kind of FAULTS) {
      const schema = z.toJSONSchema(kind.params, { io: 'input' }) as {
        properties: Record<string, { description?: string }>;
      };
      for (const [name, p] of Object.entries(schema.properties)) {
        expect(p.description?.length ?? 0, `${kind.seam}/${kind.kind}.${name}`).toBeGreaterThan(5);
      }
    }
  });

  it('each seam takes its kinds from their one source', () => {
    const toxics = [...toxicKinds.values()].filter((t) => t.pipe).map((t) => t.type);
    expect(names('network')).toEqual([...toxics, 'down']);
    expect(names('dependency')).toEqual(FAULT_KINDS.map((f) => f.kind));
    expect(names('server')).toEqual([...BEHAVIOURS.map((b) => b.kind), 'crash']);
  });

  it('network parameters are the toxic attributes (each documented in its toxic file)', () => {
    for (const toxic of [...toxicKinds.values()].filter((t) => t.pipe)) {
      expect(Object.keys(toxic.docs ?? {}), toxic.type).toEqual(Object.keys(toxic.attributes));
      const kind = findFaultKind('network', toxic.type)!;
      expect(Object.keys(kind.params.shape)).toEqual(['stream', 'toxicity', ...Object.keys(toxic.attributes)]);
    }
  });

  it('server behaviour kinds take exactly the behaviour parameters the server validates', () => {
    for (const behaviour of BEHAVIOURS) {
      expect(findFaultKind('server', behaviour.kind)?.params).toBe(behaviour.params);
    }
  });

  it('capabilities are declared, not read from the name: stdio kinds need the stdio edge, crash a restart', () => {
    for (const kind of FAULTS.filter((f) => f.seam === 'edge' && f.kind !== 'mixed-fleet')) {
      expect(kind.needs).toEqual([kind.kind.startsWith('stdio-') ? 'stdio-edge' : 'http-edge']);
    }
    // The fleet's replicas are paths of the reference HTTP server.
    expect(findFaultKind('edge', 'mixed-fleet')?.needs).toEqual(['http-edge', 'behaviour']);
    expect(findFaultKind('server', 'crash')?.needs).toEqual(['restart']);
    expect(findFaultKind('server', 'crash')?.prepare).toBeTypeOf('function');
  });
});
