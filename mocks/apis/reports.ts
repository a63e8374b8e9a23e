// Reports API: commits a generated report. Deduplicates by Idempotency-Key like the payments API (same key and
// parameters replay the stored report; different parameters are rejected with 422).
import { HttpResponse } from 'msw';
import { argsKey } from '../ledger.ts';
import { type ApiContext, apiError, DEPENDENCY_URLS, type DependencyApi, readJson } from './types.ts';

export interface Report {
  id: string;
  report_type: string;
  status: 'ready';
  url: string;
  idempotency_key?: string;
  args_key: string;
  created_ms: number;
}

const TABLE = 'reports';

async function commit(request: Request, ctx: ApiContext): Promise<Response> {
  const body = await readJson(request);
  const reportType = body?.report_type;
  if (typeof reportType !== 'string') return apiError(400, 'invalid_request', 'report_type is required');
  const args = { report_type: reportType };
  const key = argsKey(args);
  if (ctx.idempotencyKey) {
    const existing = ctx.state.get<Report>(TABLE, ctx.idempotencyKey);
    if (existing) {
      if (existing.args_key !== key) return apiError(422, 'idempotency_key_reused', 'Key reused with other parameters');
      return HttpResponse.json(existing, { headers: { 'idempotent-replayed': 'true' } });
    }
  }
  const id = `rep_${String(ctx.state.values(TABLE).length + 1).padStart(6, '0')}`;
  const report: Report = {
    id,
    report_type: reportType,
    status: 'ready',
    url: `https://reports.faultline.test/r/${id}`,
    ...(ctx.idempotencyKey && { idempotency_key: ctx.idempotencyKey }),
    args_key: key,
    created_ms: Date.now(),
  };
  ctx.state.put(TABLE, ctx.idempotencyKey ?? id, report);
  ctx.ledger.record({
    kind: 'report.generate',
    traceId: ctx.traceId,
    idempotencyKey: ctx.idempotencyKey,
    args,
    details: { reportId: id },
  });
  return HttpResponse.json(report, { status: 201 });
}

export const reportsApi: DependencyApi = {
  name: 'reports',
  baseUrl: DEPENDENCY_URLS.reports,
  async resolve(request, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/v1/reports' && request.method === 'POST') return commit(request, ctx);
    if (url.pathname === '/v1/reports' && request.method === 'GET') {
      const found = ctx.state.get<Report>(TABLE, url.searchParams.get('idempotency_key') ?? '');
      return found ? HttpResponse.json(found) : apiError(404, 'resource_missing', 'No such report');
    }
    return apiError(404, 'not_found', 'Unknown endpoint');
  },
};
