import { describe, expect, it } from 'vitest';
import { discoverProfiles } from '../../../src/cli/discover.ts';
import { loadProfile, parseProfile } from '../../../src/profile/load.ts';
import { thresholdsThatCannotFail } from '../../../src/profile/threshold-lint.ts';

// A 5 s run whose only fault window ends at 3 s: no recovery above 2000 ms can be measured.
const profile = (expect: string[], client = '', controls = '') =>
  parseProfile(
    'lint.yaml',
    `name: lint
description: thresholds that cannot fail
duration: 5s
client: { maxAttempts: 4${client} }
workload:
  rate: 20
  mix: [{ tool: search_documents, args: { query: x } }]
faults:
  - { seam: dependency, kind: status, status: 503, dependency: search, start: 1000, stop: 3000 }
expect:
${expect.map((e) => `  - ${e}`).join('\n')}
${controls}`,
  ).profile;

describe('thresholds that cannot fail', () => {
  it('flags a recovery bound longer than the time left after the window, and not a tighter one', () => {
    const [w] = thresholdsThatCannotFail(profile(['recovery_ms <= 2000', 'recovery_ms <= 1500']));
    expect(w).toContain('"recovery_ms <= 2000" cannot fail: no value above 2000 ms can be measured');
    expect(thresholdsThatCannotFail(profile(['recovery_ms <= 1500']))).toEqual([]);
  });

  it('lets a first success arrive up to one deadline after the run', () => {
    expect(thresholdsThatCannotFail(profile(['first_success_ms <= 9000'], ', deadlineMs: 8000'))).toEqual([]);
    expect(thresholdsThatCannotFail(profile(['first_success_ms <= 10000'], ', deadlineMs: 8000'))).toHaveLength(1);
  });

  it('flags a cap the policy already enforces, and what policy none cannot produce', () => {
    expect(thresholdsThatCannotFail(profile(['attempts_per_op_max <= 4']))[0]).toContain(
      'caps attempts at client.maxAttempts (4)',
    );
    expect(thresholdsThatCannotFail(profile(['attempts_per_op_max <= 3']))).toEqual([]);
    const none = thresholdsThatCannotFail(
      profile(['ops > 0'], '', 'controls:\n  none: [retry_after_violations == 0, attempts_per_op_max <= 1]'),
    );
    expect(none).toEqual([
      'controls.none: "retry_after_violations == 0" cannot fail: policy none never retries',
      'controls.none: "attempts_per_op_max <= 1" cannot fail: policy none makes one attempt per op',
    ]);
  });

  it('flags comparisons every value satisfies', () => {
    expect(
      thresholdsThatCannotFail(profile(['retried_ops >= 0', 'retry_success_rate <= 1', 'error_rate >= 0'])),
    ).toEqual([
      'expect: "retried_ops >= 0" cannot fail: retried_ops is never negative',
      'expect: "retry_success_rate <= 1" cannot fail: retry_success_rate is a rate between 0 and 1',
      'expect: "error_rate >= 0" cannot fail: error_rate is a rate between 0 and 1',
    ]);
  });

  it('finds none in the shipped profiles', () => {
    const warnings = discoverProfiles([]).flatMap((file) =>
      thresholdsThatCannotFail(loadProfile(file).profile).map((w) => `${file}: ${w}`),
    );
    expect(warnings).toEqual([]);
  });
});
