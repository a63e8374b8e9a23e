import { z } from 'zod';
import { DEPENDENCY_PATHS, type Doc, type SearchPage } from '../../core/dependency-contract.ts';
import { defineTool } from './types.ts';

/** Cuts snippets so the page fits in maxBytes (roughly): the seed's advice for oversized results. */
function fitToBudget(results: Doc[], maxBytes: number | undefined): { results: Doc[]; truncated: boolean } {
  if (!maxBytes || JSON.stringify(results).length <= maxBytes) return { results, truncated: false };
  const per = Math.max(16, Math.floor(maxBytes / Math.max(1, results.length)) - 96);
  return { results: results.map((r) => ({ ...r, snippet: `${r.snippet.slice(0, per)}…` })), truncated: true };
}

function padded(snippet: string, bytes: number | undefined): string {
  return bytes === undefined || snippet.length >= bytes ? snippet : snippet + ' '.repeat(bytes - snippet.length);
}

export const searchDocuments = defineTool({
  name: 'search_documents',
  title: 'Search the runbook library',
  description: [
    'Full-text search over the team runbooks. Read-only; safe to retry. Returns one page of results; when nextCursor',
    'is present, pass it back as cursor to get the next page (do not change query or page_size between pages).',
    'Use when: you need documents about a topic. Do not use to fetch a document by id.',
    'Formats: query is free text (1-500 chars, "*" matches everything); page_size 1-100, default 10.',
    'Example: {"query":"refunds latency","page_size":20} then {"query":"refunds latency","page_size":20,"cursor":"bzoyMA"}',
  ].join(' '),
  input: z.strictObject({
    query: z.string().min(1).max(500).describe('Free-text query, e.g. "refunds latency".'),
    page_size: z.number().int().min(1).max(100).default(10).describe('Results per page, 1-100 (default 10).'),
    cursor: z.string().max(200).optional().describe('nextCursor from the previous page; omit for the first page.'),
    /** Test knob: pads every snippet to this many bytes (large documents), so a page's size scales with page_size. */
    snippet_bytes: z
      .number()
      .int()
      .min(0)
      .max(64 * 1024 * 1024)
      .optional()
      .describe('Testing only: pad each snippet to this many bytes.'),
  }),
  output: z.object({
    results: z.array(z.object({ id: z.string(), title: z.string(), snippet: z.string(), score: z.number() })),
    total: z.number().int(),
    nextCursor: z.string().optional(),
    truncated: z.boolean(),
  }),
  sideEffecting: false,
  async run(args, ctx) {
    const params = new URLSearchParams({ q: args.query, limit: String(args.page_size) });
    if (args.cursor) params.set('cursor', args.cursor);
    const { data } = await ctx.call<SearchPage>('search', {
      method: 'GET',
      path: `${DEPENDENCY_PATHS.search}?${params}`,
      sideEffecting: false,
    });
    const page = fitToBudget(
      data.results.map(({ id, title, snippet, score }) => ({
        id,
        title,
        snippet: padded(snippet, args.snippet_bytes),
        score,
      })),
      ctx.runtime.options.maxResultBytes,
    );
    const structured = {
      results: page.results,
      total: data.total,
      ...(data.next_cursor && { nextCursor: data.next_cursor }),
      truncated: page.truncated,
    };
    const lines = page.results.map((r) => `${r.id} ${r.title}`);
    return {
      structured,
      text: `${page.results.length} of ${data.total} results${data.next_cursor ? ` (nextCursor ${data.next_cursor})` : ''}:\n${lines.join('\n')}`,
    };
  },
});
