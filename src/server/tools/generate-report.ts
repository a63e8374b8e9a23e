import { z } from 'zod';
import { DEPENDENCY_PATHS, type Report } from '../../core/dependency-contract.ts';
import { sleep } from '../../core/sleep.ts';
import { Cancelled } from '../errors.ts';
import { defineTool, idempotencyKey } from './types.ts';

const STEPS = 10;

/** What the reports API is asked to publish: the report's distinguishing arguments. */
function publishArgs(args: { report_type: string }) {
  return { report_type: args.report_type };
}

export const generateReport = defineTool({
  name: 'generate_report',
  title: 'Generate a report',
  description: [
    'Builds a report and publishes it (a side effect). Long-running: takes duration_ms (default 2000) and sends',
    'progress notifications when you pass a progressToken. Cancelling before it finishes publishes nothing.',
    'Use when: the user asked for a report. Do not call again while one is running; if it timed out, retry with the',
    'SAME idempotency_key (a published report is returned, never published twice).',
    'Formats: report_type is one of "sales", "usage", "audit", "latency"; duration_ms 0-60000.',
    'Example: {"report_type":"usage","idempotency_key":"rep-5a7c-0001","duration_ms":1500}',
  ].join(' '),
  input: z.strictObject({
    report_type: z.enum(['sales', 'usage', 'audit', 'latency']).describe('Which report to build.'),
    idempotency_key: idempotencyKey,
    duration_ms: z.number().int().min(0).max(60_000).optional().describe('How long the build takes (default 2000).'),
    ignore_cancel: z
      .boolean()
      .optional()
      .describe('Test hook (chaos negative control): keep building and publish even after cancellation. Leave unset.'),
  }),
  output: z.object({
    report_id: z.string(),
    report_type: z.string(),
    status: z.literal('ready'),
    url: z.string(),
    idempotency_key: z.string(),
  }),
  sideEffecting: true,
  idempotencyArg: 'idempotency_key',
  honoursCancel: true,
  effectArgs: publishArgs,
  async run(args, ctx) {
    const duration = args.duration_ms ?? 2000;
    // ignore_cancel: a tool that never looks at the abort signal, as many do (the ghost-write control).
    const signal = args.ignore_cancel ? new AbortController().signal : ctx.signal;
    for (let step = 1; step <= STEPS; step++) {
      if (!(await sleep(duration / STEPS, signal))) throw new Cancelled();
      await ctx.progress(step, STEPS + 1, `building ${args.report_type} report (${step}/${STEPS})`);
    }
    // The commit point: cancellation after this may still publish, before it never does.
    if (signal.aborted) throw new Cancelled();
    const request = {
      method: 'POST' as const,
      path: DEPENDENCY_PATHS.reports,
      body: publishArgs(args),
      idempotencyKey: args.idempotency_key,
      sideEffecting: true,
    };
    const { data: report } = args.ignore_cancel
      ? await ctx.runtime.deps.call<Report>('reports', request, { traceId: ctx.traceId, attempt: ctx.attempt, signal })
      : await ctx.call<Report>('reports', request);
    await ctx.progress(STEPS + 1, STEPS + 1, 'published');
    const structured = {
      report_id: report.id,
      report_type: report.report_type,
      status: report.status,
      url: report.url,
      idempotency_key: args.idempotency_key,
    };
    return { structured, text: `Report ${report.id} (${report.report_type}) is ready: ${report.url}` };
  },
});
