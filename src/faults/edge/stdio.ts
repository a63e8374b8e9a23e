// MCP-edge faults on a stdio target: the client's Transport decorator picks the requests (seeded) and the stdio
// server spoils the bytes of their answers on its real stdout (src/edge/stdio-*.ts).
//   stdio-malformed-line: a non-JSON line before the answer (onerror, parsing continues) or instead of it;
//   stdio-oversized-line: the answer on one line of at least `bytes` (over 10 MiB the SDK closes the transport
//                         and kills the child: the effect may exist, the client must reconnect);
//   stdio-slow-writes: the answer written in small chunks with a delay between them.
import { z } from 'zod';
import type { FaultContext, FaultKind, RemoveFault } from '../kind.ts';
import type { StdioFaultDirective } from './stdio/directive.ts';

const base = {
  /** JSON-RPC methods whose answers it spoils (default: tools/call only). */
  methods: z.array(z.string()).default(['tools/call']),
  probability: z.number().min(0).max(1).default(1),
};

function install(
  ctx: FaultContext,
  p: { methods: string[]; probability: number },
  directive: StdioFaultDirective,
): RemoveFault {
  ctx.env.stdio.add({ id: ctx.id, methods: p.methods, probability: p.probability, random: ctx.random, directive });
  return async () => ctx.env.stdio.remove(ctx.id);
}

const malformedParams = z.strictObject({
  ...base,
  mode: z.enum(['before', 'instead']).default('before'),
  text: z.string().min(1).default('debug: cache warmed in 12ms'),
});

export const stdioMalformedLine: FaultKind<z.infer<typeof malformedParams>> = {
  seam: 'edge',
  kind: 'stdio-malformed-line',
  summary: 'a non-JSON line on the stdio server stdout, before or instead of the answer',
  params: malformedParams,
  async apply(p, ctx) {
    return install(ctx, p, { kind: 'malformed-line', mode: p.mode, text: p.text });
  },
};

const oversizedParams = z.strictObject({
  ...base,
  /** Length of the answer's line (default 11 MiB: past the SDK's 10 MiB stdio limit). */
  bytes: z
    .number()
    .int()
    .positive()
    .max(256 * 1024 * 1024)
    .default(11 * 1024 * 1024),
});

export const stdioOversizedLine: FaultKind<z.infer<typeof oversizedParams>> = {
  seam: 'edge',
  kind: 'stdio-oversized-line',
  summary: 'the answer on one stdout line of at least `bytes` (past 10 MiB the client closes the transport)',
  params: oversizedParams,
  async apply(p, ctx) {
    return install(ctx, p, { kind: 'oversized-line', bytes: p.bytes });
  },
};

const slowParams = z.strictObject({
  ...base,
  chunkBytes: z.number().int().positive().default(64),
  delayMs: z.number().int().nonnegative().max(10_000).default(20),
});

export const stdioSlowWrites: FaultKind<z.infer<typeof slowParams>> = {
  seam: 'edge',
  kind: 'stdio-slow-writes',
  summary: 'the answer written to stdout in small chunks with a delay between them',
  params: slowParams,
  async apply(p, ctx) {
    return install(ctx, p, { kind: 'slow-write', chunkBytes: p.chunkBytes, delayMs: p.delayMs });
  },
};

export const STDIO_EDGE_FAULTS = [stdioMalformedLine, stdioOversizedLine, stdioSlowWrites] as const;
