// A fault window is a time window (start, stop) or an op window (fromOp, toOp, firstAttempts): the loader takes
// either, refuses a mix or an op range the workload cannot reach with one line naming the field, and the plan lists
// op windows apart from the timeline, each with how its seam carries it.
import { describe, expect, it } from 'vitest';
import { ProfileError } from '../../../src/core/profile-error.ts';
import { buildPlan } from '../../../src/plan/plan.ts';
import { parseProfile } from '../../../src/profile/load.ts';

const profileWith = (
  window: string,
  workload = 'rate: 10',
  seam = 'seam: dependency\n    kind: status\n    status: 503',
) => `
name: op-windows
description: op windows
duration: 2s
workload:
  ${workload}
  mix:
    - tool: search_documents
      args: { query: a }
faults:
  - ${seam}
    ${window}
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

describe('op windows in a profile', () => {
  it('takes fromOp, toOp and firstAttempts and plans them apart from the time timeline', () => {
    const { profile } = parseProfile('p.yaml', profileWith('fromOp: 3\n    toOp: 7\n    firstAttempts: 2'));
    const plan = buildPlan(profile, 1);
    expect(plan.timeline).toEqual([]);
    expect(plan.opWindows).toEqual([
      { faultIndex: 0, faultId: 'f0-dependency-status', fromOp: 3, toOp: 7, firstAttempts: 2, scope: 'per-request' },
    ]);
  });

  it("runs a window without toOp to the plan's last op (20 ops at 10/s over 2 s)", () => {
    const { profile } = parseProfile('p.yaml', profileWith('fromOp: 5'));
    expect(buildPlan(profile, 1).opWindows[0]).toMatchObject({ fromOp: 5, toOp: 19 });
  });

  it('carries a network or server op window by progress, and a closed model with ops bounds it', () => {
    const text = profileWith(
      'fromOp: 2\n    toOp: 4',
      'concurrency: 2\n  ops: 10',
      'seam: server\n    kind: evict-sessions',
    );
    expect(buildPlan(parseProfile('p.yaml', text).profile, 1).opWindows[0].scope).toBe('progress');
  });

  it.each([
    ['start: 1s\n    fromOp: 2', 'faults[0].fromOp', /either start .* or fromOp/],
    ['stop: 1s', 'faults[0]', /expected a window: start/],
    ['fromOp: 2\n    stop: 1s', 'faults[0].stop', /stop belongs to a time window/],
    ['start: 1s\n    toOp: 4', 'faults[0].toOp', /toOp belongs to an op window/],
    ['fromOp: 5\n    toOp: 4', 'faults[0].toOp', /at or after fromOp \(5\)/],
    ['fromOp: 20', 'faults[0].fromOp', /below the workload's 20 ops/],
    ['fromOp: 2\n    toOp: 20', 'faults[0].toOp', /below the workload's 20 ops/],
  ])('refuses %j at %s', (window, path, message) => {
    const e = errorOf(profileWith(window));
    expect(e.path).toBe(path);
    expect(e.message).toMatch(message);
  });

  it('refuses an op window on a closed model without ops (how many ops run depends on the machine)', () => {
    const e = errorOf(profileWith('fromOp: 2', 'concurrency: 2'));
    expect(e.path).toBe('faults[0].fromOp');
    expect(e.message).toMatch(/workload\.ops with concurrency/);
  });

  it('refuses firstAttempts on a seam that cannot tell one op from another', () => {
    const e = errorOf(
      profileWith('fromOp: 2\n    firstAttempts: 1', 'rate: 10', 'seam: server\n    kind: evict-sessions'),
    );
    expect(e.path).toBe('faults[0].firstAttempts');
    expect(e.message).toMatch(/expected a dependency or edge fault/);
  });
});
