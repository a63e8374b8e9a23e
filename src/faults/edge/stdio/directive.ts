// MCP-edge faults on stdio, as they travel: the client's Transport decorator draws (seeded, in the harness) which
// request a fault hits and tags that request's `_meta` with a directive; the stdio server's output decorator
// (stdio-output.ts) strips the tag and spoils the bytes of that request's answer on its real stdout.
export const STDIO_FAULT_META = 'faultline/stdio-fault';

export type StdioFaultDirective =
  /** A non-JSON line on stdout (a stray console.log): before the answer, or instead of it (the answer is lost). */
  | { kind: 'malformed-line'; mode: 'before' | 'instead'; text: string }
  /** The answer padded to at least `bytes` on one line: past the reader's framing limit (10 MiB) it is fatal. */
  | { kind: 'oversized-line'; bytes: number }
  /** The answer written in `chunkBytes` pieces, `delayMs` apart (the reader must reassemble partial lines). */
  | { kind: 'slow-write'; chunkBytes: number; delayMs: number };

const KINDS = new Set(['malformed-line', 'oversized-line', 'slow-write']);

/** The directive a request carries, if any (anything malformed is ignored). */
export function directiveOf(meta: unknown): StdioFaultDirective | undefined {
  const value = (meta as Record<string, unknown> | undefined)?.[STDIO_FAULT_META] as { kind?: unknown } | undefined;
  return value && typeof value.kind === 'string' && KINDS.has(value.kind) ? (value as StdioFaultDirective) : undefined;
}
