import { describe, expect, it } from 'vitest';
import { EffectLedger } from '../../../mocks/ledger.ts';
import type { History, OpRecord } from '../../../src/core/history.ts';
import { buildPlan } from '../../../src/plan/plan.ts';
import type { PlannedOp } from '../../../src/plan/schedule.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import { effectArgsKey, traitsOf } from '../../../src/server/tools/catalog.ts';
import { effect, fed, history, op } from './fixtures.ts';

const reconcile = (h: History) => fed(h).effects;

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

describe('reconcile without trace ids (production-shaped ops)', () => {
  // Ops as the workload driver records them: ids and argsKeys from the plan (effectArgsKey of the planned
  // arguments). Effects as the mocked APIs record them: the fields each route reads from the request body,
  // written out here by hand, with no trace id (a server that does not forward it).
  const profile = parseProfile(
    'attribution.yaml',
    `name: attribution
description: ops with unique generated arguments
duration: 1s
workload:
  rate: 8
  mix:
    - tool: create_payment
      args: { customer_id: "cus_{op}", amount_cents: { int: [100, 50000] }, currency: { pick: [USD, EUR] } }
    - tool: send_notification
      args: { recipient: "u{op}@example.com", channel: email, message: "order {op} shipped" }
    - tool: search_documents
      args: { query: refunds }
`,
  ).profile;
  const planned = buildPlan(profile, 7).ops.first();
  const ledger = new EffectLedger();
  const dependencySaw = (p: PlannedOp) => {
    const a = p.args as Record<string, unknown>;
    if (p.tool === 'create_payment')
      ledger.record({
        kind: 'payment.charge',
        args: { customer_id: a.customer_id, amount_cents: a.amount_cents, currency: a.currency },
      });
    if (p.tool === 'send_notification')
      ledger.record({
        kind: 'notification.send',
        args: { recipient: a.recipient, channel: a.channel, message: a.message },
      });
  };
  const writes = planned.filter((p) => traitsOf(p.tool).sideEffecting);
  const [twice, failed] = writes;
  for (const p of writes) if (p !== failed) dependencySaw(p);
  dependencySaw(twice); // a real duplicate
  const ops: OpRecord[] = planned.map((p) => {
    const key = effectArgsKey(p.tool, p.args);
    return op(p.opId, 0, 10, p === failed ? 'fail' : 'ok', {
      tool: p.tool,
      sideEffecting: traitsOf(p.tool).sideEffecting,
      ...(key !== undefined && { argsKey: key }),
    });
  });

  it('the plan gives every write a distinct argsKey and reads none', () => {
    expect(writes.length).toBeGreaterThanOrEqual(4);
    expect(writes.map((p) => p.tool)).toEqual(expect.arrayContaining(['create_payment', 'send_notification']));
    const keys = ops.filter((o) => o.sideEffecting).map((o) => o.argsKey);
    expect(new Set(keys).size).toBe(writes.length);
    expect(ops.filter((o) => !o.sideEffecting).every((o) => o.argsKey === undefined)).toBe(true);
  });

  it('counts the real duplicate, reports no ok op lost and no effect unattributed', () => {
    const effects = ledger.list();
    expect(effects.every((e) => e.traceId === undefined)).toBe(true);
    const r = reconcile(history({ ops, effects }));
    expect(r.reconciliation.byTraceId).toBe(0);
    expect(r.reconciliation.byArgsKey).toBe(effects.length);
    expect(r.unattributedEffects).toBe(0);
    expect(r.duplicateEffects).toBe(1);
    expect(r.reconciliation.duplicateOps).toEqual([twice.opId]);
    expect(r.lostEffects).toBe(0);
    expect(r.ghostEffects).toBe(0);
    expect(r.effectsByOp.has(failed.opId)).toBe(false);
  });

  it('without the argsKeys (as before) the same effects are unattributed and the ok ops lost', () => {
    const bare = ops.map(({ argsKey: _, ...o }) => o);
    const r = reconcile(history({ ops: bare, effects: ledger.list() }));
    expect(r.unattributedEffects).toBe(ledger.list().length);
    expect(r.duplicateEffects).toBe(0);
    expect(r.lostEffects).toBe(writes.length - 1);
  });
});
