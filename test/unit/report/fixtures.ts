// A small two-profile run with known outcomes for the writer tests.
import type { History } from '../../../src/core/history.ts';
import type { RunReport } from '../../../src/measure/run-report.ts';
import { buildProfileReport, buildRunReport } from '../../../src/measure/verdict.ts';
import { attempt, effect, fault, history, op, series, T0 } from '../measure/fixtures.ts';

export const EVIL = `pay<&>"'|x`;

export function sampleHistories(): Record<string, History> {
  const good = history({
    endMs: T0 + 5000,
    faults: [fault('dep-5xx', 1000, 2000)],
    ops: [
      ...series('g', 0, 40, 120),
      op('gr', 1100, 1500, 'ok', { attempts: 2, failedAttempts: 1, sideEffecting: true, tool: 'pay' }),
    ],
    attempts: [
      attempt('gr', 1, 1100, 1200, false, { category: 'DEPENDENCY', errorCode: 'DEPENDENCY.UNAVAILABLE' }),
      attempt('gr', 2, 1300, 1500, true),
    ],
    effects: [effect('gr', {}, 1450)],
    decisions: [{ stream: 'jitter', what: 'delay', value: 12 }],
  });
  const bad = history({
    startMs: T0 + 6000,
    endMs: T0 + 9000,
    faults: [fault(EVIL, 6500, undefined, 'reset<peer>')],
    ops: [
      op('b1', 6000, 6100, 'ok', { sideEffecting: true, tool: 'pay' }),
      op('b2', 6600, 6900, 'fail', { attempts: 2, failedAttempts: 2, sideEffecting: true, tool: 'pay' }),
    ],
    attempts: [
      attempt('b1', 1, 6000, 6100, true),
      attempt('b2', 1, 6600, 6700, false, {
        category: 'INTERNAL',
        errorCode: 'INTERNAL.CRASH',
        message: 'a\u0001b <x>',
      }),
      attempt('b2', 2, 6750, 6900, false, { category: 'INTERNAL', errorCode: 'INTERNAL.CRASH' }),
    ],
    effects: [effect('b1', {}, 6050), effect('b1', {}, 6060), effect('b2', {}, 6650)],
  });
  return { good, [EVIL]: bad };
}

export function sampleRun(): RunReport {
  const h = sampleHistories();
  return buildRunReport({
    seed: 7,
    startedAt: new Date(T0),
    durationMs: 9000,
    profiles: [
      buildProfileReport({
        name: 'good',
        file: 'chaos-profiles/good.yaml',
        seed: 7,
        policy: 'resilient',
        history: h.good,
        expect: ['duplicate_effects == 0', 'recovery_ms <= 2000', 'retry_success_rate >= 0.99'],
        decisionLogSha256: 'a'.repeat(64),
        metricsOptions: { canaries: { token: 'CANARY' } },
      }),
      buildProfileReport({
        name: EVIL,
        seed: 7,
        policy: 'naive',
        history: h[EVIL],
        expect: ['duplicate_effects == 0', 'recovery_ms <= 2000', 'duplicate_effects > 0'],
        decisionLogSha256: 'b'.repeat(64),
      }),
    ],
  });
}
