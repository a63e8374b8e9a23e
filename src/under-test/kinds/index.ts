// Every target kind (one file each). Adding one is adding its file and its name here: the profile's `target:`
// union, the capability check and the kind's traits are derived from this list.
import { z } from 'zod';
import { cassetteKind } from './cassette.ts';
import { httpKind } from './http.ts';
import type { EffectSourceKind, TargetKind } from './kind.ts';
import { referenceKind } from './reference.ts';
import { referenceStdioKind } from './reference-stdio.ts';
import { stdioKind } from './stdio.ts';
import { urlKind } from './url.ts';

const TARGET_KINDS = [referenceKind, referenceStdioKind, urlKind, stdioKind, httpKind, cassetteKind] as const;

type Schemas<T extends readonly TargetKind[]> = { -readonly [I in keyof T]: T[I]['schema'] };

/** The profile's `target:` block: one of the kinds' schemas, by `kind`. */
export const targetSchema = z.discriminatedUnion(
  'kind',
  TARGET_KINDS.map((k) => k.schema) as Schemas<typeof TARGET_KINDS>,
);

const BY_NAME = new Map<string, TargetKind>(TARGET_KINDS.map((k) => [k.schema.shape.kind.value as string, k]));

/** The kind of this name; undefined for a name no file declares (the schema refuses those first). */
export function targetKind(name: string): TargetKind | undefined {
  return BY_NAME.get(name);
}

/** The kinds a profile's `effects:` can see through this source, said for an "expected" line ("a, b or c"). */
export function kindsTaking(source: EffectSourceKind): string {
  const names = [...BY_NAME].filter(([, kind]) => kind.effectSources.includes(source)).map(([name]) => name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
}

/** The target's kind can put it behind Faultline's HTTP bridge (its schema takes `over: http`). */
export function goesOverHttp(target: { kind: string }): boolean {
  return targetKind(target.kind)?.schema.shape.over !== undefined;
}
