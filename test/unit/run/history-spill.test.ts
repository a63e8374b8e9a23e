import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AttemptRecord, OpRecord } from '../../../src/core/history.ts';
import { HistorySpill, loadSpill, readSpill, type SpillRecord, spillPath } from '../../../src/run/history-spill.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-spill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function op(i: number): OpRecord {
  return {
    opId: `op-${i}`,
    tool: 'create_payment',
    sideEffecting: true,
    startMs: 1000 + i,
    endMs: 1010 + i,
    outcome: i % 7 === 0 ? 'fail' : 'ok',
    attempts: 1,
    failedAttempts: 0,
    visible: `Payment ${i} done — “unicode” ✓`,
  };
}

function attempt(i: number): AttemptRecord {
  return { opId: `op-${i}`, attempt: 1, startMs: 1000 + i, endMs: 1009 + i, ok: true, next: 'done' };
}

async function collect(file: string): Promise<SpillRecord[]> {
  const out: SpillRecord[] = [];
  for await (const r of readSpill(file)) out.push(r);
  return out;
}

describe('HistorySpill', () => {
  it('streams back every record in the order written, across many chunks', async () => {
    const file = spillPath(dir, 'many');
    const spill = new HistorySpill(file);
    const written: SpillRecord[] = [];
    for (let i = 0; i < 3000; i++) {
      spill.attempt(attempt(i));
      spill.op(op(i));
      written.push({ attempt: attempt(i) }, { op: op(i) });
    }
    spill.close();
    expect(readFileSync(file, 'utf8').length).toBeGreaterThan(3 * 64 * 1024);
    expect(await collect(file)).toEqual(written);
    expect([spill.ops, spill.attempts]).toEqual([3000, 3000]);
    const loaded = await loadSpill(file);
    expect(loaded.ops).toHaveLength(3000);
    expect(loaded.attempts[2999]).toEqual(attempt(2999));
  });

  it('writes nothing it has not been given and flushes the last partial chunk on close', async () => {
    const file = spillPath(dir, 'small');
    const spill = new HistorySpill(file);
    spill.op(op(1));
    expect(readFileSync(file, 'utf8')).toBe('');
    spill.close();
    spill.close();
    expect(await collect(file)).toEqual([{ op: op(1) }]);
    expect(() => spill.op(op(2))).toThrow(/closed/);
  });

  it('names the file and line of a record it cannot read', async () => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, `${JSON.stringify({ op: op(1) })}\n{"op": {"tool": "x"}}\n`);
    await expect(collect(file)).rejects.toThrow(`${file}:2: expected {"op": ...} or {"attempt": ...}`);
    writeFileSync(file, 'not json\n');
    await expect(collect(file)).rejects.toThrow(`${file}:1: expected one JSON record per line`);
  });
});
