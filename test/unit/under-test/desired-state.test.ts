// The run's one desired fault state: windows put and delete their specs, every change pushes the whole part by
// its control operation, and a new server process is told only the parts that hold something.
import { describe, expect, it } from 'vitest';
import type { ControlRequest } from '../../../src/control/control.ts';
import { DesiredFaultState } from '../../../src/under-test/desired-state.ts';

function recording() {
  const pushed: ControlRequest[] = [];
  const state = new DesiredFaultState(async (request) => {
    pushed.push(structuredClone(request));
    return undefined;
  });
  return { state, pushed };
}

describe('desired fault state', () => {
  it('pushes the whole part on every change, in the order the windows opened', async () => {
    const { state, pushed } = recording();
    await state.dependencyFaults.put({ id: 'f0', kind: 'latency', dependency: '*', ms: 100 });
    await state.dependencyFaults.put({ id: 'f1', kind: 'hang', dependency: 'search' });
    await state.dependencyFaults.delete('f0');
    await state.dependencyFaults.delete('f0'); // already gone: nothing to push
    expect(pushed.map((p) => [p.op, (p.input as { id: string }[]).map((s) => s.id)])).toEqual([
      ['setDependencyFaults', ['f0']],
      ['setDependencyFaults', ['f0', 'f1']],
      ['setDependencyFaults', ['f1']],
    ]);
  });

  it('behaviour specs go by their own operation; a new process is told only the non-empty parts', async () => {
    const { state, pushed } = recording();
    expect(state.requests()).toEqual([]);
    await state.behaviour.put({ id: 'f2', kind: 'stream-close', every: 2 });
    expect(pushed).toEqual([{ op: 'setBehaviour', input: [{ id: 'f2', kind: 'stream-close', every: 2 }] }]);
    expect(state.requests()).toEqual([{ op: 'setBehaviour', input: [{ id: 'f2', kind: 'stream-close', every: 2 }] }]);
    await state.behaviour.delete('f2');
    expect(state.requests()).toEqual([]);
  });

  it('a push that fails fails the edit, and the edit is kept for the next process', async () => {
    const state = new DesiredFaultState(async () => {
      throw new Error('invalid');
    });
    await expect(state.dependencyFaults.put({ id: 'f0', kind: 'hang', dependency: '*' })).rejects.toThrow('invalid');
    expect(state.dependencyFaults.list()).toHaveLength(1);
    state.clear();
    expect(state.requests()).toEqual([]);
  });
});
