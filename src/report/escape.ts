// Escaping for XML/HTML text and attributes, and for Markdown table cells.

// Characters XML 1.0 forbids even when escaped (C0 controls other than tab, newline, carriage return).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** HTML shares XML's escapes; &#39; instead of &apos; for old parsers. */
export function escapeHtml(text: string): string {
  return escapeXml(text).replace(/&apos;/g, '&#39;');
}

/**
 * Markdown text (table cells included): no pipes or line breaks that would split a row, no `<` that GitHub
 * would take for an HTML tag.
 */
export function escapeMd(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
}

/** A Markdown code span: entities would show literally there, but a table still splits on a bare pipe. */
export function mdCode(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')}\``;
}
