import { describe, expect, it } from 'vitest';
import { checkXml } from './xml-check.ts';

// The checker guards the junit test, so it must itself reject broken XML.
describe('checkXml', () => {
  it('accepts well-formed XML', () => {
    expect(checkXml('<?xml version="1.0"?>\n<a x="1 &amp; 2"><b/>t &lt; u</a>\n')).toEqual([]);
  });
  it.each([
    ['<a><b></a>', '</a> closes <b>'],
    ['<a x="<">', 'malformed tag'],
    ['<a>1 & 2</a>', 'bad entity'],
    ['<a>x > y</a>', 'raw ">"'],
    ['<a/><b/>', 'one root'],
    ['<a x="1" x="2"/>', 'duplicate attribute'],
    ['<a>\u0001</a>', 'control character'],
    ['<a>', 'unclosed'],
  ])('rejects %s', (xml, problem) => {
    expect(checkXml(xml).join('\n')).toContain(problem);
  });
});
