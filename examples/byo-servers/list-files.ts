// Read-back module for @modelcontextprotocol/server-filesystem: list_directory answers with text lines
// ("[FILE] name", "[DIR] name"), which no JSON path can split. One key per file: its name.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export default function filesIn(result: CallToolResult): string[] {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return text.split('\n').flatMap((line) => (line.startsWith('[FILE] ') ? [line.slice('[FILE] '.length)] : []));
}
