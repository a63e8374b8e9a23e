// The toxics of one proxy: one chain per direction, applied to every live link (toxic_collection.go).
// Names are unique across both directions; toxics run in the order they were added.
import { decoded, errors } from './errors.ts';
import { asStruct, field, objectField } from './json-decode.ts';
import type { ToxicLink } from './link.ts';
import { type Attributes, type Direction, parseDirection, type ToxicKind, type ToxicModel } from './toxic.ts';
import { toxicKinds } from './toxics/index.ts';

const DIRECTIONS: readonly Direction[] = ['upstream', 'downstream'];

function decodeAttributes(kind: ToxicKind, raw: Record<string, unknown> | undefined, into: Attributes): Attributes {
  const result = { ...into };
  if (!raw) return result;
  for (const [name, type] of Object.entries(kind.attributes)) {
    const value = field(raw, name, type, `${kind.goName}.attributes.${name}`);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

export class ToxicCollection {
  readonly chain: Record<Direction, ToxicModel[]> = { upstream: [], downstream: [] };
  private readonly links = new Set<ToxicLink>();
  /** The latest toxic of each name, kept after its removal so what it did can still be read. */
  private readonly lastByName = new Map<string, ToxicModel>();

  /** Both directions, upstream first, as GetToxicArray. */
  list(): ToxicModel[] {
    return [...this.chain.upstream, ...this.chain.downstream];
  }

  find(name: string): ToxicModel | undefined {
    return this.list().find((toxic) => toxic.name === name);
  }

  /** Times the latest toxic of this name acted, removed or not; undefined when there never was one. */
  hitsOf(name: string): number | undefined {
    return this.lastByName.get(name)?.hits;
  }

  addLink(link: ToxicLink): void {
    this.links.add(link);
  }

  removeLink(link: ToxicLink): void {
    this.links.delete(link);
  }

  /** POST /proxies/{p}/toxics. Checks in Toxiproxy's order: body, stream, type, duplicate name, attributes. */
  async add(body: unknown): Promise<ToxicModel> {
    const input = decoded(() => {
      const object = asStruct(body, 'toxics.ToxicWrapper');
      return {
        name: (field(object, 'name', 'string', 'ToxicWrapper.name') as string | undefined) ?? '',
        type: (field(object, 'type', 'string', 'ToxicWrapper.type') as string | undefined) ?? '',
        stream: (field(object, 'stream', 'string', 'ToxicWrapper.stream') as string | undefined) ?? 'downstream',
        toxicity: (field(object, 'toxicity', 'float32', 'ToxicWrapper.toxicity') as number | undefined) ?? 1,
        attributes: objectField(object, 'attributes', 'ToxicWrapper.attributes', 'toxics.NoopToxic'),
      };
    });
    const direction = parseDirection(input.stream);
    if (!direction) throw errors.invalidStream();
    const name = input.name || `${input.type}_${input.stream}`;
    const kind = toxicKinds.get(input.type);
    if (!kind) throw errors.invalidToxicType();
    if (this.find(name)) throw errors.toxicAlreadyExists();
    const zero = Object.fromEntries(Object.keys(kind.attributes).map((key) => [key, 0]));
    const attributes = decoded(() => decodeAttributes(kind, input.attributes, zero));
    const toxic: ToxicModel = {
      name,
      type: kind.type,
      stream: input.stream,
      direction,
      toxicity: input.toxicity,
      attributes,
      kind,
      hits: 0,
    };
    this.lastByName.set(name, toxic);
    const liveLinks = this.linksOf(direction);
    this.chain[direction].push(toxic);
    await Promise.all(liveLinks.map((link) => link.addToxic(toxic)));
    return toxic;
  }

  /** PATCH/POST /proxies/{p}/toxics/{t}: attributes merge into the toxic; a missing toxicity keeps its value. */
  async update(name: string, body: unknown): Promise<ToxicModel> {
    const toxic = this.find(name);
    if (!toxic) throw errors.toxicNotFound();
    const input = decoded(() => {
      const object = asStruct(
        body,
        'struct { Attributes interface {} "json:\\"attributes\\""; Toxicity float32 "json:\\"toxicity\\"" }',
      );
      const raw = objectField(object, 'attributes', '.attributes', `toxics.${toxic.kind.goName}`);
      return {
        attributes: decodeAttributes(toxic.kind, raw, toxic.attributes),
        toxicity: field(object, 'toxicity', 'float32', '.toxicity') as number | undefined,
      };
    });
    Object.assign(toxic.attributes, input.attributes);
    if (input.toxicity !== undefined) toxic.toxicity = input.toxicity;
    toxic.jsonText = undefined;
    const index = this.chain[toxic.direction].indexOf(toxic) + 1;
    await Promise.all(this.linksOf(toxic.direction).map((link) => link.updateToxic(toxic, index)));
    return toxic;
  }

  async remove(name: string): Promise<void> {
    const toxic = this.find(name);
    if (!toxic) throw errors.toxicNotFound();
    await this.removeToxic(toxic);
  }

  /** Part of POST /reset: every toxic goes, flushing held data (timeout closes its connections instead). */
  async reset(): Promise<void> {
    for (const direction of DIRECTIONS) {
      while (this.chain[direction].length > 0) await this.removeToxic(this.chain[direction][0]);
    }
  }

  private async removeToxic(toxic: ToxicModel): Promise<void> {
    const chain = this.chain[toxic.direction];
    const index = chain.indexOf(toxic) + 1;
    chain.splice(index - 1, 1);
    await Promise.all(this.linksOf(toxic.direction).map((link) => link.removeToxic(toxic, index)));
  }

  private linksOf(direction: Direction): ToxicLink[] {
    return [...this.links].filter((link) => link.direction === direction);
  }
}
