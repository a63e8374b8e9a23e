// The first JSON value of a body, as Go's json.Decoder reads it: where it ends, and the scanner's words when it is
// malformed. The messages were read off a real toxiproxy-server 2.12 answering the same bodies.
import { describe, expect, it } from 'vitest';
import { firstValue } from '../../../src/toxiproxy/json-first-value.ts';

describe('firstValue', () => {
  it.each([
    ['{"a":1} trailing', '{"a":1}'],
    ['  [1, {"b": [true, null]}]]', '  [1, {"b": [true, null]}]'],
    ['01', '0'],
    ['"x"y', '"x"'],
    ['-1.5e+3,', '-1.5e+3'],
    ['"\\u00e9\\n"', '"\\u00e9\\n"'],
  ])('%j ends after %j', (text, value) => {
    expect(firstValue(text)).toEqual({ value });
  });

  it.each([
    ['', 'EOF'],
    [' \n\t\r', 'EOF'],
    ['{"a":', 'unexpected EOF'],
    ['-', 'unexpected EOF'],
    ['1.', 'unexpected EOF'],
    ['"abc', 'unexpected EOF'],
    ['nul', 'unexpected EOF'],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":1.e5}', "invalid character 'e' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['{"a":"tab\there"}', "invalid character '\\t' in string literal"],
    ["'single'", "invalid character '\\'' looking for beginning of value"],
    ['\x01', "invalid character '\\x01' looking for beginning of value"],
    ['\v', "invalid character '\\v' looking for beginning of value"],
    ['é', "invalid character 'Ã' looking for beginning of value"],
    ['{"a":falsy}', "invalid character 'y' in literal false (expecting 'e')"],
  ])('%j is refused: %s', (text, failure) => {
    expect(firstValue(text)).toEqual({ failure });
  });
});
