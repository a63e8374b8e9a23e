// Bytes each metric family keeps per op once 100,000 synthetic ops went through it live: ops start every 10 ms, 1 in
// 8 retried after a slow failure (so ops end out of start order), fed in end order with the low watermark the
// Recorder gives (the earliest start among open ops); each payment's effect streamed just before its op ends, as
// the reference server child pushes it, and one fault window announced at the start, removed halfway. Each family runs alone in a fresh child process with
// --expose-gc (a bench's own flag; src/ sets none) and reports heapUsed after a full collection, before and after the
// feed (heapUsed plus ArrayBuffers: typed arrays live outside the heap), less the same loop with a family that keeps
// nothing (the records themselves are built first and held throughout). Prints one line per family; asserts nothing.
// Run: node bin/run-ts.js bench/family-retained.ts [-- --ops 100000]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AttemptRecord, FaultWindow, OpRecord } from '../src/core/history.ts';
import type { Accumulator } from '../src/measure/accumulator.ts';
import { newFeed } from '../src/measure/feed.ts';
import { benchArgs, hidden, parseCount } from './args.ts';

const { options } = benchArgs<{ ops: number; child?: string }>(
  'family-retained',
  'bytes each metric family keeps per op once many synthetic ops went through it',
  (c) => c.option('--ops <n>', 'synthetic ops', parseCount, 100_000).addOption(hidden('--child <family>')),
);

/** Op i's attempts and the op; deterministic. */
function synthetic(count: number): { attempts: AttemptRecord[]; op: OpRecord }[] {
  const t0 = 1_700_000_000_000;
  return Array.from({ length: count }, (_, i) => {
    const opId = `op-${String(i).padStart(6, '0')}`;
    const pay = i % 5 < 3;
    const retried = i % 8 === 0;
    const startMs = t0 + i * 10;
    const attempts: AttemptRecord[] = [];
    let t = startMs;
    for (let n = 1; n <= (retried ? 2 : 1); n++) {
      const last = !retried || n > 1;
      const dur = last ? 5 + (i % 40) : 2000;
      attempts.push({
        opId,
        attempt: n,
        startMs: t,
        endMs: t + dur,
        ok: last,
        ...(!last && { category: 'DEPENDENCY', errorCode: 'DEPENDENCY.TIMEOUT', retryable: true }),
      });
      t += dur + 50;
    }
    const op: OpRecord = {
      opId,
      tool: pay ? 'create_payment' : 'search_documents',
      sideEffecting: pay,
      startMs,
      endMs: t,
      outcome: 'ok',
      attempts: attempts.length,
      failedAttempts: attempts.length - 1,
      ...(pay && { argsKey: `k${i.toString(36)}-${(i * 7919).toString(36)}` }),
    };
    return { attempts, op };
  });
}

/** The control: a family that keeps nothing, so what the loop itself leaves is subtracted. */
const NOTHING = '(nothing)';

function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function measure(family: string, count: number): number {
  const records = synthetic(count);
  const byEnd = records.map((_, i) => i).sort((a, b) => records[a].op.endMs - records[b].op.endMs || a - b);
  const ended = new Uint8Array(count);
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const before = used();
  const acc: Accumulator<unknown> =
    family === NOTHING ? { result: () => null } : newFeed()[family as keyof ReturnType<typeof newFeed>];
  let earliestOpen = 0;
  const t0 = records[0].op.startMs;
  const window: FaultWindow = { id: 'f', seam: 'dependency', kind: 'http-5xx', onMs: t0 };
  acc.liveEffects?.();
  acc.fault?.(window);
  let seq = 0;
  for (const i of byEnd) {
    const { op } = records[i];
    if (window.offMs === undefined && op.endMs > t0 + count * 5) window.offMs = op.endMs;
    for (const a of records[i].attempts) acc.attempt?.(a);
    if (op.sideEffecting) acc.effect?.({ seq: ++seq, atMs: op.endMs, kind: 'payment.charge', traceId: op.opId });
    acc.op?.(op);
    ended[i] = 1;
    while (earliestOpen < count && ended[earliestOpen]) earliestOpen++;
    // Ops start every 10 ms in index order: the earliest open one's start, or the last start when none is open.
    acc.watermark?.(records[Math.min(earliestOpen, count - 1)].op.startMs);
  }
  gc();
  const after = used();
  // Both stay reachable until measured.
  if (acc.result === undefined || records.length !== count) throw new Error('unreachable');
  return (after - before) / count;
}

const { ops } = options;
if (options.child !== undefined) {
  console.log(measure(options.child, ops).toFixed(1));
} else {
  const self = fileURLToPath(import.meta.url);
  const runTs = fileURLToPath(new URL('../bin/run-ts.js', import.meta.url));
  console.log(`${ops} synthetic ops, fed in end order with watermarks; load average ${loadavg()[0].toFixed(2)}`);
  console.log('family           retained B/op');
  const child = (family: string) => {
    const run = spawnSync(process.execPath, ['--expose-gc', runTs, self, '--child', family, '--ops', String(ops)], {
      encoding: 'utf8',
    });
    const bytes = Number(run.stdout.trim());
    if (!Number.isFinite(bytes)) throw new Error(`${family}: ${run.stderr.trim()}`);
    return bytes;
  };
  const control = child(NOTHING);
  console.log(`${NOTHING.padEnd(16)} ${control.toFixed(1)} (the control, subtracted below)`);
  let total = 0;
  for (const family of Object.keys(newFeed())) {
    const bytes = child(family) - control;
    total += bytes;
    console.log(`${family.padEnd(16)} ${bytes.toFixed(1)}`);
  }
  console.log(`${'all'.padEnd(16)} ${total.toFixed(1)}   (load average ${loadavg()[0].toFixed(2)})`);
}
