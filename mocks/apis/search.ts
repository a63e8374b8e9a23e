// Search API: read-only, paginated by an opaque cursor, over a fixed generated corpus (deterministic, no state).
import { DEPENDENCY_PATHS, type Doc, type SearchPage } from '../../src/core/dependency-contract.ts';
import { apiError, defineApi, get } from './types.ts';

const TOPICS = ['payments', 'refunds', 'invoices', 'notifications', 'reports', 'outages', 'latency', 'retries'];
const CORPUS_SIZE = 240;

const CORPUS: Doc[] = Array.from({ length: CORPUS_SIZE }, (_, i) => {
  const topic = TOPICS[i % TOPICS.length];
  return {
    id: `doc_${String(i + 1).padStart(4, '0')}`,
    title: `${topic[0].toUpperCase()}${topic.slice(1)} runbook ${Math.floor(i / TOPICS.length) + 1}`,
    snippet: `How the team handles ${topic}: checklist item ${i + 1}.`,
    score: 1 - i / (CORPUS_SIZE * 2),
  };
});

/** Each doc's searchable text, lower-cased once: the corpus is fixed, and a search must not rebuild it per doc. */
const TEXTS = CORPUS.map((d) => `${d.title} ${d.snippet}`.toLowerCase());

function hitsOf(query: string): Doc[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0 || terms.includes('*')) return CORPUS;
  return CORPUS.filter((_, i) => terms.some((t) => TEXTS[i].includes(t)));
}

function search(request: Request): Response {
  const url = new URL(request.url);
  const query = url.searchParams.get('q') ?? '';
  const limit = Number(url.searchParams.get('limit') ?? '10');
  const cursor = url.searchParams.get('cursor');
  const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^o:/, '')) : 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !Number.isInteger(offset) || offset < 0) {
    return apiError(400, 'invalid_request', 'bad limit or cursor');
  }
  const hits = hitsOf(query);
  const next = offset + limit < hits.length ? Buffer.from(`o:${offset + limit}`).toString('base64url') : null;
  const page: SearchPage = { results: hits.slice(offset, offset + limit), total: hits.length, next_cursor: next };
  return Response.json(page);
}

export const searchApi = defineApi('search', [get(DEPENDENCY_PATHS.search, search)]);
