import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../../src/report/junit.ts';
import { sampleRun } from './fixtures.ts';
import { checkXml } from './xml-check.ts';

describe('renderJunit', () => {
  const run = sampleRun();
  const xml = renderJunit(run);

  it('is well-formed XML even with markup in names and messages', () => {
    expect(checkXml(xml)).toEqual([]);
    expect(xml).toContain('name="pay&lt;&amp;&gt;&quot;&apos;|x"');
  });

  it('has one testsuite per profile and one testcase per threshold', () => {
    // Each profile's own thresholds plus the implicit `unattributed_effects == 0 or n/a` (measure/verdict.ts).
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    // Three thresholds per profile plus the implicit unattributed_effects == 0 each.
    expect(xml.match(/<testcase /g)).toHaveLength(8);
    expect(xml).toMatch(/<testsuites name="faultline" tests="8" failures="2" errors="0"/);
    expect(xml).toMatch(/<testsuite name="good" tests="4" failures="0" errors="0" skipped="0"/);
  });

  it('reports actual against expected in each failure', () => {
    const failures = [...xml.matchAll(/<failure message="([^"]*)"/g)].map((m) => m[1]);
    expect(failures).toHaveLength(2);
    expect(failures[0]).toBe('expected duplicate_effects == 0, actual 1');
    expect(failures[1]).toContain('expected recovery_ms &lt;= 2000, actual none');
    expect(failures[1]).toContain(': the fault was never removed');
  });

  it('carries the replay command in every failure and as a property', () => {
    const out = renderJunit(sampleRun(), { reportPath: 'out/report.json' });
    expect(out).toContain('actual 1\n\nreproduce:\n  faultline replay out/report.json</failure>');
    expect(out).toContain(
      `<property name="replay" value="faultline run ${resolve('chaos-profiles/good.yaml')} --seed 7 --policy resilient"/>`,
    );
  });

  it('gives a verdict that thresholds do not explain a case of its own: inert fails, inconclusive skips', () => {
    const run = sampleRun();
    run.profiles[0] = { ...run.profiles[0], verdict: 'inert' as never };
    const inert = renderJunit(run);
    expect(checkXml(inert)).toEqual([]);
    expect(inert).toMatch(/<testsuite name="good" tests="5" failures="1" errors="0" skipped="0"/);
    expect(inert).toContain('<failure message="verdict inert" type="verdict">');
    run.profiles[0] = { ...run.profiles[0], verdict: 'inconclusive' as never };
    const skipped = renderJunit(run);
    expect(skipped).toMatch(/<testsuite name="good" tests="5" failures="0" errors="0" skipped="1"/);
    expect(skipped).toContain('<skipped message="verdict inconclusive" type="verdict">');
    run.profiles[0] = { ...run.profiles[0], verdict: 'pass' };
    expect(renderJunit(run)).not.toContain('type="verdict"');
  });

  it('adds an error case for a profile that crashed and a placeholder when there are no thresholds', () => {
    const crashed = sampleRun();
    crashed.profiles[0] = { ...crashed.profiles[0], thresholds: [], error: 'server exited <1>\nstack' };
    const out = renderJunit(crashed);
    expect(checkXml(out)).toEqual([]);
    expect(out).toContain('<error message="server exited &lt;1&gt;" type="run">');
    expect(out).not.toContain('completed (no thresholds)');
    const empty = sampleRun();
    empty.profiles[0] = { ...empty.profiles[0], thresholds: [] };
    expect(renderJunit(empty)).toContain('<testcase name="completed (no thresholds)"');
  });

  it('skips an inconclusive profile, naming its thresholds with margin and reason, and fails none', () => {
    const run = sampleRun();
    const t = run.profiles[0].thresholds[0];
    const late = { ...t, ok: false, status: 'inconclusive' as const, marginMs: 488, reason: 'within the delay' };
    run.profiles = [{ ...run.profiles[0], verdict: 'inconclusive', thresholds: [late, run.profiles[0].thresholds[1]] }];
    const out = renderJunit(run);
    expect(xsdProblems(out)).toBe('');
    expect(out).not.toContain('<failure');
    const expected = `inconclusive: &quot;${t.expr.replace('<', '&lt;')}&quot; at ${t.actual} ms, margin 488 ms: within the delay`;
    expect(out).toContain(`<skipped message="${expected}" type="verdict">`);
    expect(out).toContain(`<skipped message="${expected}" type="threshold">`);
    expect(out).toMatch(/<testsuite name="good" tests="3" failures="0" errors="0" skipped="2"/);
  });

  it('a failed profile lists only its failing thresholds as failures; an inconclusive one beside them is skipped', () => {
    const run = sampleRun();
    const bad = run.profiles[1];
    const late = { ...bad.thresholds[1], status: 'inconclusive' as const, marginMs: 9, reason: 'within the delay' };
    run.profiles = [{ ...bad, thresholds: [bad.thresholds[0], late, bad.thresholds[2]] }];
    const out = renderJunit(run);
    expect(xsdProblems(out)).toBe('');
    expect([...out.matchAll(/<failure message="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'expected duplicate_effects == 0, actual 1',
    ]);
    expect(out).toContain('<skipped message="inconclusive: ');
  });

  it('an interrupted profile fails no threshold: each is skipped as not judged, with what it measured so far', () => {
    const run = sampleRun();
    run.profiles = [{ ...run.profiles[1], verdict: 'interrupted', verdictReason: 'the run was stopped' }];
    const out = renderJunit(run);
    expect(xsdProblems(out)).toBe('');
    expect(out).not.toContain('<failure');
    expect(out).toContain(
      '<skipped message="not judged: the run was interrupted (measured so far: duplicate_effects 1 == 0)" type="threshold">',
    );
    expect(out).toContain('<skipped message="interrupted after 2 ops: the run was stopped" type="verdict">');
  });

  it('has a testsuite per profile and pairing in a run of several pairings, valid against the JUnit XSD', () => {
    const run = sampleRun();
    const good = run.profiles[0];
    run.profiles = [
      { ...good, pairing: 'auto' },
      { ...good, pairing: 'auto-sdk1' },
    ];
    const out = renderJunit(run);
    expect(xsdProblems(out)).toBe('');
    expect(out).toContain('<testsuite name="good [auto]"');
    expect(out).toContain('<testsuite name="good [auto-sdk1]"');
    expect(out).toContain('classname="faultline.good.auto-sdk1"');
    expect(out).toContain('<property name="pairing" value="auto-sdk1"/>');
    // The check can fail: a count that is not a number breaks the schema.
    expect(xsdProblems(out.replace(/ tests="\d+"/, ' tests="many"'))).toMatch(/fails to validate/);
  });
});

/** xmllint against schema/junit.xsd (as the CI readers do): '' when valid, its complaint otherwise. */
function xsdProblems(xml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-junit-'));
  const file = join(dir, 'junit.xml');
  writeFileSync(file, xml);
  const result = spawnSync('xmllint', ['--noout', '--schema', resolve('schema/junit.xsd'), file], { encoding: 'utf8' });
  return result.status === 0 ? '' : `${result.stderr}`;
}
