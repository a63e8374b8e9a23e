// The idempotency contract's JUnit file: a fail is a failure, an n/a is skipped with its reason, a pass a bare
// testcase; every shape validates against schema/junit.xsd. The exit code: any fail, or nothing judged, is 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractJunit } from '../../../src/contract/junit.ts';
import { type ContractRow, contractExit } from '../../../src/contract/suite.ts';

const row = (tool: string, check: string, verdict: ContractRow['verdict'], evidence: string): ContractRow => ({
  tool,
  check,
  title: check,
  verdict,
  evidence,
  ms: 12,
});

const ROWS = [
  row('create_order', 'same-key-same-args', 'pass', '1 effect(s); results equal'),
  row('create_order', 'same-key-other-args', 'fail', 'second call: result {"id":"<1>"}; 2 effect(s)'),
  row('peek_order', 'same-key-same-args', 'n/a', 'read-only & no key'),
];

function xsdProblems(xml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-contract-junit-'));
  try {
    writeFileSync(join(dir, 'junit.xml'), xml);
    const r = spawnSync('xmllint', ['--noout', '--schema', resolve('schema/junit.xsd'), join(dir, 'junit.xml')], {
      encoding: 'utf8',
    });
    return r.status === 0 ? '' : r.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('contractJunit', () => {
  it('pass, fail and n/a rows validate, a testsuite per tool, counts per verdict', () => {
    const xml = contractJunit(ROWS);
    expect(xsdProblems(xml)).toBe('');
    expect(xml).toMatch(/<testsuite name="create_order" tests="2" failures="1" errors="0" skipped="0"/);
    expect(xml).toMatch(/<testsuite name="peek_order" tests="1" failures="0" errors="0" skipped="1"/);
    expect(xml).toContain('<failure message="second call: result {&quot;id&quot;:&quot;&lt;1&gt;&quot;}; 2 effect(s)"');
    expect(xml).toContain('<skipped message="not applicable: read-only &amp; no key" type="n/a"/>');
  });

  it('the schema check can fail: a testcase without time is refused', () => {
    expect(xsdProblems(contractJunit(ROWS).replace(/ time="[0-9.]+"/, ''))).toMatch(/fails to validate/);
  });
});

describe('contractExit', () => {
  it('1 on any fail, 0 for passes beside n/a, 1 when nothing was judged', () => {
    expect(contractExit(ROWS)).toBe(1);
    expect(contractExit([ROWS[0], ROWS[2]])).toBe(0);
    expect(contractExit([ROWS[2]])).toBe(1);
  });
});
