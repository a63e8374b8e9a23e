// Where the first JSON value of a request body ends, as Go's json.Decoder reads it: Toxiproxy decodes each body
// with json.NewDecoder(body).Decode, which takes one value and leaves whatever follows it unread (a body with
// trailing bytes is accepted), and reports a malformed one in its scanner's words ("invalid character 'x' looking
// for beginning of value", "unexpected EOF"). JSON.parse then reads the value itself.
const SPACE = new Set([' ', '\t', '\n', '\r']);
const HEX = /[0-9a-fA-F]/;
const DIGIT = /[0-9]/;
const LITERALS = ['true', 'false', 'null'];

class Malformed extends Error {}

/** Go's quoteChar: the offending byte in single quotes, escaped as strconv.Quote would. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  const escapes: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '\\': '\\\\',
  };
  if (escapes[c]) return `'${escapes[c]}'`;
  // Go looks at one byte: a character past ASCII is the first byte of its UTF-8, read as U+0000 to U+00FF.
  const byte = Buffer.from(c, 'utf8')[0];
  if (byte >= 0x20 && byte < 0x7f) return `'${c}'`;
  if (byte < 0x20 || byte === 0x7f) return `'\\x${byte.toString(16).padStart(2, '0')}'`;
  const printable = byte >= 0xa1 && byte !== 0xad;
  return printable ? `'${String.fromCharCode(byte)}'` : `'\\u00${byte.toString(16).padStart(2, '0')}'`;
}

class Scanner {
  at = 0;
  constructor(private readonly text: string) {}

  /** The next byte past whitespace; a body that ends before the value does is "unexpected EOF". */
  next(): string {
    while (this.at < this.text.length && SPACE.has(this.text[this.at])) this.at++;
    return this.peek();
  }

  peek(): string {
    if (this.at >= this.text.length) throw new Malformed('unexpected EOF');
    return this.text[this.at];
  }

  fail(c: string, context: string): never {
    throw new Malformed(`invalid character ${quoteChar(c)} ${context}`);
  }

  value(): void {
    const c = this.next();
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else if (c === '-' || DIGIT.test(c)) this.number();
    else {
      const word = LITERALS.find((w) => w[0] === c);
      if (word === undefined) this.fail(c, 'looking for beginning of value');
      this.literal(word);
    }
  }

  private object(): void {
    this.at++;
    if (this.next() === '}') return void this.at++;
    for (;;) {
      const key = this.next();
      if (key !== '"') this.fail(key, 'looking for beginning of object key string');
      this.string();
      const colon = this.next();
      if (colon !== ':') this.fail(colon, 'after object key');
      this.at++;
      this.value();
      const c = this.next();
      this.at++;
      if (c === '}') return;
      if (c !== ',') this.fail(c, 'after object key:value pair');
    }
  }

  private array(): void {
    this.at++;
    if (this.next() === ']') return void this.at++;
    for (;;) {
      this.value();
      const c = this.next();
      this.at++;
      if (c === ']') return;
      if (c !== ',') this.fail(c, 'after array element');
    }
  }

  private string(): void {
    this.at++;
    for (;;) {
      const c = this.peek();
      this.at++;
      if (c === '"') return;
      if (c === '\\') {
        const code = this.peek();
        this.at++;
        if (code === 'u') {
          for (let i = 0; i < 4; i++, this.at++) {
            if (!HEX.test(this.peek())) this.fail(this.peek(), 'in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(code)) this.fail(code, 'in string escape code');
      } else if (c < ' ') this.fail(c, 'in string literal');
    }
  }

  /** A number ends at the first byte that cannot continue it; only a cut-off one ("-", "1.", "1e") is malformed. */
  private number(): void {
    if (this.text[this.at] === '-') {
      this.at++;
      if (!DIGIT.test(this.peek())) this.fail(this.peek(), 'in numeric literal');
    }
    if (this.text[this.at] === '0') this.at++;
    else this.digits();
    if (this.text[this.at] === '.') {
      this.at++;
      if (!DIGIT.test(this.peek())) this.fail(this.peek(), 'after decimal point in numeric literal');
      this.digits();
    }
    if (this.text[this.at] === 'e' || this.text[this.at] === 'E') {
      this.at++;
      if (this.peek() === '+' || this.peek() === '-') this.at++;
      if (!DIGIT.test(this.peek())) this.fail(this.peek(), 'in exponent of numeric literal');
      this.digits();
    }
  }

  private digits(): void {
    while (this.at < this.text.length && DIGIT.test(this.text[this.at])) this.at++;
  }

  private literal(word: string): void {
    for (let i = 1; i < word.length; i++) {
      this.at++;
      const c = this.peek();
      if (c !== word[i]) this.fail(c, `in literal ${word} (expecting '${word[i]}')`);
    }
    this.at++;
  }
}

/** The first value's text, or Go's words for why there is none ("EOF" for a body of nothing but whitespace). */
export function firstValue(text: string): { value: string } | { failure: string } {
  if (/^[ \t\n\r]*$/.test(text)) return { failure: 'EOF' };
  const scanner = new Scanner(text);
  try {
    scanner.value();
  } catch (error) {
    if (error instanceof Malformed) return { failure: error.message };
    throw error;
  }
  return { value: text.slice(0, scanner.at) };
}
