import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { RunReport } from '../../../src/measure/run-report.ts';
import { renderJson } from '../../../src/report/json.ts';
import { reportJsonSchema, runReportSchema } from '../../../src/report/report-schema.ts';
import { sampleRun } from './fixtures.ts';
import { allPassSuite } from './suite-fixture.ts';

// Every RunReport the code can build has the schema's type (tsc fails on this line otherwise).
const typed = (run: RunReport): z.input<typeof runReportSchema> => run;

describe('report.json schema', () => {
  it('is the committed schema/report.schema.json (regenerate: node bin/run-ts.js scripts/report-schema.ts)', () => {
    const committed = JSON.parse(readFileSync('schema/report.schema.json', 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(reportJsonSchema())));
  });

  it('accepts what the JSON writer writes, n/a (null) metrics included', () => {
    const run = JSON.parse(renderJson(sampleRun()));
    typed(sampleRun());
    expect(run.profiles[1].metrics.recovery[0].recoveryMs).toBeNull();
    expect(runReportSchema.safeParse(run).error?.issues).toBeUndefined();
    expect(runReportSchema.safeParse(JSON.parse(renderJson(allPassSuite()))).error?.issues).toBeUndefined();
  });

  it('rejects what it does not document, a wrong type and version 1', () => {
    const run = JSON.parse(renderJson(sampleRun()));
    const issue = (mutate: (r: any) => void) => {
      const copy = structuredClone(run);
      mutate(copy);
      const parsed = runReportSchema.safeParse(copy);
      return parsed.success ? 'accepted' : `${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].code}`;
    };
    expect(issue((r) => (r.profiles[0].metrics.surprise = 1))).toBe('profiles.0.metrics: unrecognized_keys');
    expect(issue((r) => (r.profiles[0].metrics.retrySuccessRate = '100%'))).toBe(
      'profiles.0.metrics.retrySuccessRate: invalid_type',
    );
    expect(issue((r) => (r.schemaVersion = 1))).toBe('schemaVersion: invalid_value');
    expect(issue((r) => (r.profiles[0].metrics.faultWindows[0].hits = 3))).toBe('accepted');
    expect(issue((r) => (r.profiles[0].metrics.faultWindows[0].hits = null))).toBe('accepted');
    expect(issue((r) => (r.profiles[0].metrics.leaksByKind = { bearer: 1 }))).toBe('accepted');
  });

  it('documents n/a as null, hits, retriedOps and leaksByKind', () => {
    const text = JSON.stringify(reportJsonSchema());
    const metrics = (reportJsonSchema() as any).properties.profiles.items.properties.metrics;
    expect(metrics.properties.retrySuccessRate.anyOf).toContainEqual({ type: 'null' });
    expect(metrics.properties.retrySuccessRate.description).toMatch(/null = n\/a/);
    expect(metrics.required).toContain('retriedOps');
    expect(metrics.required).toContain('leaksByKind');
    const window = metrics.properties.faultWindows.items;
    expect(window.properties.hits.description).toMatch(/inert/);
    expect(window.properties.hits.anyOf).toContainEqual({ type: 'null' });
    expect(metrics.properties.recovery.items.properties.recoveryMs.type).toEqual(['number', 'null']);
    expect(text).toContain('"const":2');
  });
});
