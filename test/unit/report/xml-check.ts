// A small XML well-formedness check for tests: matched tags, quoted attributes, only known entities, no stray
// markup characters in text, no forbidden control characters.
export function checkXml(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  let roots = 0;
  const entityOk = (s: string) => !/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(s);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting them is the point
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)) problems.push('forbidden control character');
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (text.includes('>')) problems.push(`raw ">" in text: ${text.slice(0, 40)}`);
    if (!entityOk(text)) problems.push(`bad entity in text: ${text.slice(0, 40)}`);
    if (text.trim() && stack.length === 0) problems.push('text outside the root element');
    if (lt === -1) break;
    rest = rest.slice(lt);
    const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<]*")*)\s*(\/?)>/.exec(rest);
    if (!tag) {
      problems.push(`malformed tag at: ${rest.slice(0, 60)}`);
      break;
    }
    const [whole, closing, name, attrs, selfClosing] = tag;
    if (!entityOk(attrs)) problems.push(`bad entity in attributes of <${name}>`);
    const attrNames = [...attrs.matchAll(/([A-Za-z_][\w.:-]*)=/g)].map((m) => m[1]);
    if (new Set(attrNames).size !== attrNames.length) problems.push(`duplicate attribute in <${name}>`);
    if (closing) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open}>`);
    } else {
      if (stack.length === 0) roots++;
      if (!selfClosing) stack.push(name);
    }
    rest = rest.slice(whole.length);
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`expected one root element, found ${roots}`);
  return problems;
}
