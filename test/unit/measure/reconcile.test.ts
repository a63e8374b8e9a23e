import { describe, expect, it } from 'vitest';
import { reconcile } from '../../../src/measure/reconcile.ts';
import { effect, history, op } from './fixtures.ts';

const pay = { sideEffecting: true, tool: 'pay' };

describe('reconcile', () => {
  it('counts duplicates, ghosts, lost and unattributed effects', () => {
    const h = history({
      ops: [
        op('once', 0, 10, 'ok', pay),
        op('thrice', 0, 10, 'ok', pay), // 2 duplicates
        op('twice', 0, 10, 'info', pay), // 1 duplicate, info with effect
        op('ghost', 0, 10, 'fail', pay), // ghost
        op('lost', 0, 10, 'ok', pay), // lost
        op('honest-fail', 0, 10, 'fail', pay), // no effect: fine
        op('read', 0, 10, 'ok'), // not side-effecting: never lost
      ],
      effects: [
        effect('once'),
        effect('thrice'),
        effect('thrice'),
        effect('thrice'),
        effect('twice'),
        effect('twice'),
        effect('ghost'),
        effect('nobody'),
        effect(undefined),
      ],
    });
    const r = reconcile(h);
    expect(r.duplicateEffects).toBe(3);
    expect(r.ghostEffects).toBe(1);
    expect(r.lostEffects).toBe(1);
    expect(r.unattributedEffects).toBe(2);
    expect(r.reconciliation.duplicateOps).toEqual(['thrice', 'twice']);
    expect(r.reconciliation.ghostOps).toEqual(['ghost']);
    expect(r.reconciliation.lostOps).toEqual(['lost']);
    expect(r.reconciliation.infoWithEffectOps).toEqual(['twice']);
    expect(r.reconciliation.byTraceId).toBe(7);
    expect(r.reconciliation.unattributedSeqs).toHaveLength(2);
  });

  it('falls back to argsKey when an effect has no trace id', () => {
    const h = history({
      ops: [op('a', 0, 10, 'ok', { ...pay, argsKey: 'k-a' }), op('b', 0, 10, 'fail', { ...pay, argsKey: 'k-b' })],
      effects: [
        effect(undefined, { argsKey: 'k-a' }),
        effect(undefined, { argsKey: 'k-a' }),
        effect(undefined, { argsKey: 'k-b' }),
      ],
    });
    const r = reconcile(h);
    expect(r.reconciliation.byArgsKey).toBe(3);
    expect(r.duplicateEffects).toBe(1);
    expect(r.ghostEffects).toBe(1);
    expect(r.lostEffects).toBe(0);
    expect(r.unattributedEffects).toBe(0);
  });

  it('does not guess when several ops share an argsKey', () => {
    const h = history({
      ops: [op('a', 0, 10, 'ok', { ...pay, argsKey: 'same' }), op('b', 0, 10, 'ok', { ...pay, argsKey: 'same' })],
      effects: [effect(undefined, { argsKey: 'same' })],
    });
    const r = reconcile(h);
    expect(r.unattributedEffects).toBe(1);
    expect(r.lostEffects).toBe(2);
  });
});
