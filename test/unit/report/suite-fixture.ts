// A synthetic all-pass run of the default suite: every shipped profile's name, policy and thresholds, with the
// metrics of the writer fixtures' `good` profile and every threshold met. For the size of the summaries.
import { discoverProfiles } from '../../../src/cli/discover.ts';
import type { RunReport } from '../../../src/measure/run-report.ts';
import { buildProfileReport, buildRunReport } from '../../../src/measure/verdict.ts';
import { loadProfile } from '../../../src/profile/load.ts';
import { T0 } from '../measure/fixtures.ts';
import { sampleHistories } from './fixtures.ts';

export function allPassSuite(): RunReport {
  const history = sampleHistories().good;
  const profiles = discoverProfiles([]).map((file) => {
    const { profile } = loadProfile(file);
    const report = buildProfileReport({
      name: profile.name,
      description: profile.description,
      file,
      seed: profile.seed,
      policy: profile.client.policy,
      history,
      expect: profile.expect,
      decisionLogSha256: 'c'.repeat(64),
      metricsOptions: { canaries: { token: 'CANARY' } },
      // Relative thresholds (`x control`) get a control value: the history stands for its own control.
      control: 'self',
    });
    const thresholds = report.thresholds.map((t) => ({ ...t, actual: t.target, ok: true, na: undefined }));
    return { ...report, thresholds, verdict: 'pass' as const, workloadOffsetMs: 0 };
  });
  return buildRunReport({ seed: 7, startedAt: new Date(T0), durationMs: 180_000, profiles });
}
