// Every toxic attribute declares a unit, every unit has a bound, and a profile naming a value past its attribute's
// bound is refused at load on one line that names the field, derived over every toxic (a new toxic is covered the
// day it lands). Controls: the bound itself is accepted, and an attribute without a unit is caught.
import { describe, expect, it } from 'vitest';
import { ProfileError } from '../../../src/core/profile-error.ts';
import { TOXIC_ATTRIBUTE_UNITS, unitOf } from '../../../src/faults/network/toxic.ts';
import { BOUND_BY_UNIT } from '../../../src/profile/limits.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import type { ToxicKind } from '../../../src/toxiproxy/toxic.ts';
import { toxicKinds } from '../../../src/toxiproxy/toxics/index.ts';

const ATTRIBUTES = [...toxicKinds.values()].flatMap((toxic) =>
  Object.keys(toxic.attributes).map((name) => ({ toxic, name })),
);

/** A valid profile with one network fault of this toxic, `name` set to `value` (required attributes at 1). */
function profileWith(toxic: ToxicKind, name: string, value: number): string {
  const attrs = Object.entries(toxic.docs)
    .filter(([other, doc]) => other !== name && doc.required)
    .map(([other]) => `, ${other}: 1`)
    .join('');
  return `name: ok
duration: 2s
workload:
  rate: 5
  mix:
    - tool: search_documents
      args: { query: invoices }
faults:
  - { seam: network, kind: ${toxic.type}, ${name}: ${value}${attrs}, start: 0 }
expect:
  - ops_fail == 0
`;
}

function refusal(text: string): ProfileError | undefined {
  try {
    parseProfile('p.yaml', text);
    return undefined;
  } catch (error) {
    if (error instanceof ProfileError) return error;
    throw error;
  }
}

describe('toxic attribute bounds', () => {
  it('the toxics have attributes to check (the derived tests below are not empty)', () => {
    expect(ATTRIBUTES.length).toBeGreaterThanOrEqual(9);
  });

  for (const { toxic, name } of ATTRIBUTES) {
    describe(`${toxic.type}.${name}`, () => {
      const unit = TOXIC_ATTRIBUTE_UNITS[toxic.type]?.[name];
      const max = unit === undefined ? Number.NaN : BOUND_BY_UNIT[unit].max;

      it('declares a unit with a finite bound', () => {
        expect(unit).toBe(toxic.docs[name]?.unit);
        expect(Number.isFinite(max)).toBe(true);
      });

      it('accepts its bound and refuses one more, on one line naming the field', () => {
        expect(refusal(profileWith(toxic, name, max))).toBeUndefined();
        const error = refusal(profileWith(toxic, name, max + 1));
        expect(error?.path).toBe(`faults[0].${name}`);
        expect(error?.message.split('\n')).toHaveLength(1);
        expect(error?.message).toMatch(
          new RegExp(`^p\\.yaml:\\d+:\\d+: faults\\[0\\]\\.${name}: ${max + 1} .+; expected at most ${max} `),
        );
      });
    });
  }

  it('an attribute its toxic gives no unit is caught (the check that guards a new toxic can fire)', () => {
    const careless = {
      type: 'pause',
      goName: 'PauseToxic',
      attributes: { hold: 'int64' },
      docs: {},
    } as unknown as ToxicKind;
    expect(() => unitOf(careless, 'hold')).toThrow(/toxic pause: attribute hold declares no unit/);
  });
});
