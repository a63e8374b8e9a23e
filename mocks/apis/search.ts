// Search API: read-only, paginated by an opaque cursor, over a fixed generated corpus (deterministic, no state).
import { HttpResponse } from 'msw';
import { apiError, DEPENDENCY_URLS, type DependencyApi } from './types.ts';

const TOPICS = ['payments', 'refunds', 'invoices', 'notifications', 'reports', 'outages', 'latency', 'retries'];
export const CORPUS_SIZE = 240;

export interface Doc {
  id: string;
  title: string;
  snippet: string;
  score: number;
}

const CORPUS: Doc[] = Array.from({ length: CORPUS_SIZE }, (_, i) => {
  const topic = TOPICS[i % TOPICS.length];
  return {
    id: `doc_${String(i + 1).padStart(4, '0')}`,
    title: `${topic[0].toUpperCase()}${topic.slice(1)} runbook ${Math.floor(i / TOPICS.length) + 1}`,
    snippet: `How the team handles ${topic}: checklist item ${i + 1}.`,
    score: 1 - i / (CORPUS_SIZE * 2),
  };
});

function matches(doc: Doc, query: string): boolean {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0 || terms.includes('*')) return true;
  const text = `${doc.title} ${doc.snippet}`.toLowerCase();
  return terms.some((t) => text.includes(t));
}

export const searchApi: DependencyApi = {
  name: 'search',
  baseUrl: DEPENDENCY_URLS.search,
  async resolve(request) {
    const url = new URL(request.url);
    if (url.pathname !== '/v1/search' || request.method !== 'GET')
      return apiError(404, 'not_found', 'Unknown endpoint');
    const query = url.searchParams.get('q') ?? '';
    const limit = Number(url.searchParams.get('limit') ?? '10');
    const cursor = url.searchParams.get('cursor');
    const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^o:/, '')) : 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !Number.isInteger(offset) || offset < 0) {
      return apiError(400, 'invalid_request', 'bad limit or cursor');
    }
    const hits = CORPUS.filter((d) => matches(d, query));
    const page = hits.slice(offset, offset + limit);
    const next = offset + limit < hits.length ? Buffer.from(`o:${offset + limit}`).toString('base64url') : null;
    return HttpResponse.json({ results: page, total: hits.length, next_cursor: next });
  },
};
