// A dependency fault in an op window acts only on requests of its ops (by the forwarded trace id and attempt), and
// counts only those as hits: the same requests meet it whatever order or speed they arrive at.
import { describe, expect, it } from 'vitest';
import { FaultEngine } from '../../../mocks/faults/engine.ts';
import { DEPENDENCY_URLS } from '../../../src/core/dependency-contract.ts';
import { ATTEMPT_HEADER, TRACE_HEADER } from '../../../src/core/wire.ts';

const ok = async () => new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });

async function statusOf(e: FaultEngine, op: number, attempt: number) {
  const headers = { [TRACE_HEADER]: `op-${String(op).padStart(5, '0')}`, [ATTEMPT_HEADER]: String(attempt) };
  const request = new Request(`${DEPENDENCY_URLS.payments}/v1/x`, { method: 'POST', headers });
  return (await e.run('payments', request, ok)).status;
}

describe('dependency faults scoped to ops', () => {
  it('answers 503 to ops 2..3 on their first two attempts only, and counts only those as hits', async () => {
    const e = new FaultEngine(1, () => {});
    e.set([
      { id: 'w', dependency: 'payments', kind: 'status', status: 503, ops: { from: 2, to: 3, firstAttempts: 2 } },
    ]);
    const seen: string[] = [];
    for (const op of [4, 3, 1, 2, 0])
      for (const attempt of [1, 2, 3]) if ((await statusOf(e, op, attempt)) === 503) seen.push(`${op}#${attempt}`);
    expect(seen.sort()).toEqual(['2#1', '2#2', '3#1', '3#2']);
    expect(e.hits.of('w')).toBe(4);
  });

  it('acts on every request when it has no ops (a time window)', async () => {
    const e = new FaultEngine(1, () => {});
    e.set([{ id: 'w', dependency: 'payments', kind: 'status', status: 503 }]);
    expect(await statusOf(e, 7, 5)).toBe(503);
  });
});
