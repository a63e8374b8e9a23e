import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../src/profile/load.ts';
import { ProfileError } from '../../../src/profile/profile-error.ts';

const VALID = `
name: ok
description: a valid profile
duration: 2s
workload:
  rate: 5
  mix:
    - tool: create_payment
      args: { customer_id: c, amount_cents: 100, currency: USD }
faults:
  - seam: dependency
    kind: status
    dependency: payments
    status: 503
    start: 500ms
    stop: 1s
expect:
  - duplicate_effects == 0
`;

function errorOf(text: string): ProfileError {
  try {
    parseProfile('p.yaml', text);
  } catch (error) {
    if (error instanceof ProfileError) return error;
    throw error;
  }
  throw new Error('expected a ProfileError');
}

describe('profile loading', () => {
  it('accepts a valid profile and applies defaults', () => {
    const { profile } = parseProfile('p.yaml', VALID);
    expect(profile.duration).toBe(2000);
    expect(profile.faults[0].start).toBe(500);
    expect(profile.client.policy).toBe('resilient');
    expect(profile.target).toMatchObject({ kind: 'reference', eventStore: true });
  });

  it('reports bad YAML with file and line', () => {
    const e = errorOf('name: x\n  bad: [unclosed\n');
    expect(e.message).toMatch(/^p\.yaml:\d+: \(document\): invalid YAML/);
  });

  it('reports a wrong type with the path inside the document', () => {
    const e = errorOf(VALID.replace('rate: 5', 'rate: fast'));
    expect(e.path).toBe('workload.rate');
    expect(e.message).toMatch(/^p\.yaml:\d+: workload\.rate: .*number/);
  });

  it('reports an unknown fault kind and lists the known ones', () => {
    const e = errorOf(VALID.replace('kind: status', 'kind: explode'));
    expect(e.path).toBe('faults[0].kind');
    expect(e.message).toContain('unknown dependency fault kind "explode"');
    expect(e.message).toContain('commit-then-delay');
  });

  it('reports a bad fault parameter at its path', () => {
    const e = errorOf(VALID.replace('status: 503', 'status: 200'));
    expect(e.path).toBe('faults[0].status');
  });

  it('reports an unknown fault parameter at the fault, naming the key', () => {
    const e = errorOf(VALID.replace('status: 503', 'status: 503\n    statusCode: 503'));
    expect(e.path).toBe('faults[0]');
    expect(e.message).toMatch(/^p\.yaml:\d+: faults\[0\]: unknown key "statusCode"$/);
    // A parameter of another kind is unknown here too.
    expect(errorOf(VALID.replace('status: 503', 'status: 503\n    ms: 100')).message).toContain('unknown key "ms"');
  });

  it('reports an unknown seam', () => {
    const e = errorOf(VALID.replace('seam: dependency', 'seam: disk'));
    expect(e.path).toBe('faults[0].seam');
    expect(e.message).toContain('expected a seam: one of network, edge, dependency, server');
  });

  it('keeps the parsed fault parameters, defaults applied', () => {
    const { profile } = parseProfile(
      'p.yaml',
      VALID.replace('kind: status\n    dependency: payments\n    status: 503', 'kind: commit-then-fail'),
    );
    expect(profile.faults[0]).toEqual({
      seam: 'dependency',
      kind: 'commit-then-fail',
      dependency: '*',
      status: 502,
      start: 500,
      stop: 1000,
    });
  });

  it('refuses a fault the target cannot take, from what the kind declares it needs', () => {
    const stdioFault = VALID.replace(
      'seam: dependency\n    kind: status\n    dependency: payments\n    status: 503',
      'seam: edge\n    kind: stdio-slow-writes',
    );
    const e = errorOf(stdioFault);
    expect(e.path).toBe('faults[0].kind');
    expect(e.message).toContain(
      'fault kind stdio-slow-writes needs a stdio target (kind reference-stdio); target kind reference cannot take it',
    );
    expect(() => parseProfile('p.yaml', `${stdioFault}\ntarget: { kind: reference-stdio }\n`)).not.toThrow();
  });

  it('reports an unknown tool', () => {
    const e = errorOf(VALID.replace('tool: create_payment', 'tool: create_paymnet'));
    expect(e.path).toBe('workload.mix[0].tool');
    expect(e.message).toContain('unknown tool "create_paymnet"');
  });

  it('reports an unknown key', () => {
    const e = errorOf(`${VALID}\nretries: 3\n`);
    expect(e.message).toContain('unknown key "retries"');
  });

  it('reports a bad threshold', () => {
    const e = errorOf(VALID.replace('duplicate_effects == 0', 'duplicates are zero'));
    expect(e.path).toBe('expect[0]');
  });

  it('reports a window that stops before it starts', () => {
    const e = errorOf(VALID.replace('stop: 1s', 'stop: 100ms'));
    expect(e.path).toBe('faults[0].stop');
  });

  it('warns when the timeout layering is broken', () => {
    const { warnings } = parseProfile('p.yaml', `${VALID}\nclient: { attemptTimeoutMs: 500 }\n`);
    expect(warnings.join('\n')).toMatch(/timeout layering/);
  });
});
