// The names a compact file (core/record-log.ts) writes instead of repeated strings. Keys (a record type's field
// names, a few dozen) each get a short name. A string value is named from its second sighting on, within a
// bounded table: values seen once are remembered only until SEEN_ONCE of them pile up, and the table stops taking
// names at MAX_NAMES or MAX_CHARS, so per-op unique strings (ids, keys) never grow it without end.
const SEEN_ONCE = 4096;
const SEEN_ONCE_CHARS = 4 * 1024 * 1024;
const MAX_NAMES = 16_384;
const MAX_CHARS = 4 * 1024 * 1024;
/** A named value is written `~<name>`; a value that starts with `~` is written with one more. */
const MARK = '~';

export class StringTable {
  private readonly keys = new Map<string, string>();
  private readonly keyNames = new Map<string, string>();
  private readonly names = new Map<string, string>();
  private readonly texts: string[] = [];
  private readonly seenOnce = new Set<string>();
  private seenChars = 0;
  private chars = 0;

  /** Values named so far. */
  get size(): number {
    return this.texts.length;
  }

  /** The key's short name (letters, given in order of first use: a digit-only key would reorder its object). */
  key(name: string): string {
    let short = this.keys.get(name);
    if (short === undefined) {
      short = letters(this.keys.size);
      this.keys.set(name, short);
      this.keyNames.set(short, name);
    }
    return short;
  }

  keyName(short: string): string {
    const name = this.keyNames.get(short);
    if (name === undefined) throw new Error(`string table: no key named ${short}`);
    return name;
  }

  /** The value as written: its name once it has one, else itself (escaped). */
  value(text: string): string {
    const name = this.names.get(text) ?? this.name(text);
    if (name !== undefined) return `${MARK}${name}`;
    return text.startsWith(MARK) ? `${MARK}${text}` : text;
  }

  /** The value a written string stands for. */
  text(written: string): string {
    if (!written.startsWith(MARK)) return written;
    if (written.startsWith(MARK, 1)) return written.slice(1);
    const text = this.texts[Number.parseInt(written.slice(1), 36)];
    if (text === undefined) throw new Error(`string table: no value named ${written}`);
    return text;
  }

  /** Names the text at its second sighting, while the table has room. */
  private name(text: string): string | undefined {
    if (this.texts.length >= MAX_NAMES || this.chars + text.length > MAX_CHARS) return undefined;
    if (!this.seenOnce.has(text)) {
      if (this.seenOnce.size >= SEEN_ONCE || this.seenChars + text.length > SEEN_ONCE_CHARS) {
        this.seenOnce.clear();
        this.seenChars = 0;
      }
      this.seenOnce.add(text);
      this.seenChars += text.length;
      return undefined;
    }
    this.seenOnce.delete(text);
    const name = this.texts.length.toString(36);
    this.texts.push(text);
    this.names.set(text, name);
    this.chars += text.length;
    return name;
  }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function letters(n: number): string {
  const last = LETTERS[n % LETTERS.length];
  return n < LETTERS.length ? last : letters(Math.floor(n / LETTERS.length) - 1) + last;
}
