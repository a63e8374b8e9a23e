import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { evaluateThresholds } from '../../../src/measure/thresholds.ts';
import { RemoteTarget } from '../../../src/targets/remote-target.ts';
import { history, op } from '../measure/fixtures.ts';

describe('a url target without an admin endpoint', () => {
  it('says it cannot see effects, so effect metrics are n/a and their thresholds fail, not a silent 0', () => {
    const blind = new RemoteTarget('http://127.0.0.1:3001/mcp');
    const seeing = new RemoteTarget('http://127.0.0.1:3001/mcp', { url: 'http://127.0.0.1:3002', token: 't' });
    expect(blind.observesEffects).toBe(false);
    expect(seeing.observesEffects).toBe(true);
    // What run-profile does with it: the history is marked, and duplicate_effects == 0 cannot pass on nothing.
    const h = { ...history({ ops: [op('a', 0, 10, 'ok', { sideEffecting: true })] }), effectsObservable: false };
    const [duplicates] = evaluateThresholds(['duplicate_effects == 0'], computeMetrics(h));
    expect(duplicates).toMatchObject({ ok: false, actual: null, na: true });
  });
});
