// report.html of a run in several pairings: the profiles x pairings table from report.json's `matrix`, a row
// that differs highlighted with its differing numbers bold, each cell a link to its profile's section for that
// pairing on the same page (one report.html whatever the pairings).
import { describe, expect, it } from 'vitest';
import type { MatrixCell, ProtocolMatrix } from '../../../src/measure/protocol-matrix.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { sampleRun } from './fixtures.ts';

const numbers = (over: Record<string, number | null> = {}) => ({
  ops: 100,
  error_rate: 0,
  retry_success_rate: null,
  duplicate_effects: 0,
  lost_effects: 0,
  attempts_per_op_max: 1,
  proto_errors: 0,
  recovery_ms: null,
  ...over,
});
const pass = (over?: Record<string, number | null>): MatrixCell => ({ verdict: 'pass', numbers: numbers(over) });

const matrix: ProtocolMatrix = {
  pairings: [
    { name: 'legacy', summary: 'SDK 1.32 client and server, 2025-11-25' },
    { name: 'modern', summary: 'SDK 2.4 client pinned to 2026-07-28, SDK 2.4 server' },
  ],
  rows: [
    {
      profile: 'baseline',
      policy: 'resilient',
      cells: { legacy: pass(), modern: { verdict: 'fail', numbers: numbers({ attempts_per_op_max: 3 }) } },
      differs: ['verdict', 'attempts_per_op_max'],
    },
    { profile: 'dependency-5xx', policy: 'resilient', cells: { legacy: pass(), modern: pass() }, differs: [] },
    {
      profile: 'session-loss',
      policy: 'resilient',
      cells: {
        legacy: pass(),
        modern: { verdict: 'n/a', reason: 'server fault evict-sessions: no sessions', numbers: {} },
      },
      differs: [],
    },
  ],
};

describe('report.html of a matrix run', () => {
  const run = { ...sampleRun(), matrix };
  const html = renderHtml(run, {});
  const rowOf = (profile: string) =>
    html.slice(html.indexOf(`<th data-label="profile">${profile}</th>`)).split('</tr>')[0];

  it('has one row per profile and one column per pairing, above the per-profile sections', () => {
    expect(html).toContain(
      '<table class="matrix cards"><thead><tr><th>profile</th><th>legacy</th><th>modern</th><th>differs</th></tr>',
    );
    for (const profile of ['baseline', 'dependency-5xx', 'session-loss']) expect(rowOf(profile)).toContain('</td>');
    expect(html).toContain('<section id="profile-');
    expect(html.indexOf('<table class="matrix')).toBeLessThan(html.indexOf('<section id="profile-'));
    expect(html).toContain('1 of 3 profile(s) that chose several pairings differ between them');
  });

  it('highlights the cells of a row that differs, the differing numbers bold, and names what differs', () => {
    const baseline = rowOf('baseline');
    expect(baseline.match(/<td class="differs"/g)).toHaveLength(2);
    expect(baseline).toContain('<strong>❌ fail</strong>');
    expect(baseline).toContain('<strong>att max 3</strong>');
    expect(baseline).toContain('<strong>att max 1</strong>');
    expect(baseline).toContain('ops 100,'); // a number that agrees is not bold
    expect(baseline).toContain('<td data-label="differs">verdict, attempts_per_op_max</td>');
    expect(rowOf('dependency-5xx')).not.toContain('class="differs"');
    expect(rowOf('dependency-5xx')).toContain('<td data-label="differs">same</td>');
  });

  it('links each cell that ran to its profile and pairing section on the page; an n/a cell shows its reason', () => {
    expect(rowOf('baseline')).toContain('<a href="#profile-baseline-modern">');
    expect(rowOf('baseline')).toContain('<a href="#profile-baseline-legacy">');
    const na = rowOf('session-loss');
    expect(na).toContain('➖ n/a<br>server fault evict-sessions: no sessions');
    expect(na).not.toContain('#profile-session-loss-modern');
    expect(html).not.toContain('report.html');
  });

  it('the sections of a profile that ran in two pairings have their own ids, each named by its pairing', () => {
    const base = sampleRun().profiles[0];
    const both = renderHtml(
      {
        ...sampleRun(),
        profiles: [
          { ...base, pairing: 'legacy' },
          { ...base, pairing: 'modern' },
        ],
        matrix,
      },
      {},
    );
    expect(both).toContain(`<section id="profile-${base.name}-legacy">`);
    expect(both).toContain(`<section id="profile-${base.name}-modern">`);
    expect(both).toContain(`<h2>${base.name} <code>modern</code>`);
  });

  it('shows no matrix when no profile ran in more than one pairing', () => {
    const none = renderHtml({ ...sampleRun(), matrix: { ...matrix, rows: [] } }, {});
    expect(none).not.toContain('Protocol pairings');
    expect(none).toContain('<section id="profile-');
  });

  it('a run in one pairing keeps the overview and the profile sections', () => {
    expect(renderHtml(sampleRun(), {})).toContain('<section id="profile-');
  });
});
