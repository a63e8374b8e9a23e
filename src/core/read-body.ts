// Reads a node:http request body up to a size limit and decodes it (JSON by default; an empty body is null).

const DEFAULT_BODY_LIMIT_BYTES = 1 << 20;

export class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super('body too large');
    this.name = 'BodyTooLarge';
  }
}

export interface ReadBodyOptions<T> {
  /** Stop reading and throw BodyTooLarge past this many bytes (default 1 MiB). */
  limitBytes?: number;
  /** Decodes the UTF-8 text; JSON.parse by default, with an empty body read as null. */
  parse?: (text: string) => T;
}

const parseJson = (text: string): unknown => JSON.parse(text || 'null');

export async function readBody<T = unknown>(
  req: AsyncIterable<Uint8Array>,
  { limitBytes = DEFAULT_BODY_LIMIT_BYTES, parse = parseJson as (text: string) => T }: ReadBodyOptions<T> = {},
): Promise<T> {
  let size = 0;
  const chunks: Uint8Array[] = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limitBytes) throw new BodyTooLarge(limitBytes);
    chunks.push(chunk);
  }
  return parse(Buffer.concat(chunks).toString('utf8'));
}
