// Reports API: publishes a generated report, idempotent by Idempotency-Key like payments (idempotent-create.ts).
import { DEPENDENCY_PATHS, type Report } from '../../src/core/dependency-contract.ts';
import { idempotentCreate } from './idempotent-create.ts';
import { type ApiContext, apiError, defineApi, get, post, readJson } from './types.ts';

const TABLE = 'reports';

async function publish(request: Request, ctx: ApiContext): Promise<Response> {
  const body = await readJson(request);
  const reportType = body?.report_type;
  if (typeof reportType !== 'string') return apiError(400, 'invalid_request', 'report_type is required');
  return idempotentCreate<Report>(ctx, {
    table: TABLE,
    idPrefix: 'rep',
    effect: 'report.generate',
    args: { report_type: reportType },
    build: ({ id, ...created }) => ({
      id,
      report_type: reportType,
      status: 'ready',
      url: `https://reports.faultline.test/r/${id}`,
      ...created,
    }),
    details: (report) => ({ reportId: report.id }),
  });
}

function lookup(request: Request, ctx: ApiContext): Response {
  const key = new URL(request.url).searchParams.get('idempotency_key') ?? '';
  const found = ctx.state.get<Report>(TABLE, key);
  return found ? Response.json(found) : apiError(404, 'resource_missing', 'No such report');
}

export const reportsApi = defineApi('reports', [
  post(DEPENDENCY_PATHS.reports, publish),
  get(DEPENDENCY_PATHS.reports, lookup),
]);
