// The pool behind `faultline run --jobs`: results in task order whatever order tasks end in, never more than `jobs`
// in flight (counted), no task started once stopped, and an error stops the tasks in flight before it is thrown.
import { describe, expect, it } from 'vitest';
import { inOrderPool } from '../../../src/run/in-order-pool.ts';

/** Tasks that end when the test says so, counting how many are in flight at once. */
function gated() {
  const ends: (() => void)[] = [];
  const started: number[] = [];
  let inFlight = 0;
  let most = 0;
  const task = async (index: number, signal: AbortSignal) => {
    started.push(index);
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise<void>((resolve) => {
      ends[index] = resolve;
      signal.addEventListener('abort', () => resolve());
    });
    inFlight--;
    return signal.aborted ? `${index} stopped` : `${index} done`;
  };
  const settle = () => new Promise((r) => setImmediate(r));
  return { task, ends, started, most: () => most, settle };
}

describe('inOrderPool', () => {
  it('keeps results in task order when later tasks end first', async () => {
    const g = gated();
    const pool = inOrderPool(5, 3, new AbortController().signal, g.task);
    for (const i of [2, 1, 4, 0, 3]) {
      await g.settle();
      g.ends[i]?.();
      await g.settle();
    }
    // Tasks 3 and 4 start only as others end: end what is still open.
    for (let round = 0; round < 3; round++) {
      await g.settle();
      for (const end of g.ends) end?.();
    }
    expect(await pool).toEqual(['0 done', '1 done', '2 done', '3 done', '4 done']);
    expect(g.started).toEqual([0, 1, 2, 3, 4]);
  });

  it('never has more than `jobs` tasks in flight, and has that many when there is work', async () => {
    for (const jobs of [1, 2, 3]) {
      const g = gated();
      const pool = inOrderPool(7, jobs, new AbortController().signal, g.task);
      // End the tasks one by one, the oldest in flight first, until all seven have ended.
      for (let ended = 0; ended < 7; ended++) {
        await g.settle();
        g.ends[ended]();
      }
      expect(await pool).toHaveLength(7);
      expect(g.most()).toBe(jobs);
    }
  });

  it('starts nothing once stopped and answers only the tasks that started', async () => {
    const g = gated();
    const stop = new AbortController();
    const pool = inOrderPool(6, 2, stop.signal, g.task);
    await g.settle();
    stop.abort();
    expect(await pool).toEqual(['0 stopped', '1 stopped']);
    expect(g.started).toEqual([0, 1]);
  });

  it('an error stops the tasks in flight, waits for them, then is thrown', async () => {
    const g = gated();
    let stoppedTasks = 0;
    const pool = inOrderPool(6, 3, new AbortController().signal, async (i, signal) => {
      if (i === 1) throw new Error('server would not start');
      const result = await g.task(i, signal);
      if (signal.aborted) stoppedTasks++;
      return result;
    });
    await expect(pool).rejects.toThrow('server would not start');
    expect(stoppedTasks).toBe(2);
    expect(g.started).toEqual([0, 2]);
  });

  it('a task that runs alone starts once every task before it ended, and none after it starts before it ends', async () => {
    const g = gated();
    const log: string[] = [];
    const task = async (i: number, signal: AbortSignal) => {
      log.push(`start ${i}`);
      const result = await g.task(i, signal);
      log.push(`end ${i}`);
      return result;
    };
    const pool = inOrderPool(6, 3, new AbortController().signal, task, (i) => i === 2);
    // End whatever is in flight, the highest index first, until all six have ended.
    for (let round = 0; round < 12; round++) {
      await g.settle();
      for (const i of [5, 4, 3, 2, 1, 0]) if (g.started.includes(i) && !log.includes(`end ${i}`)) g.ends[i]?.();
    }
    expect(await pool).toHaveLength(6);
    expect(g.started).toEqual([0, 1, 2, 3, 4, 5]);
    // Task 2 started after 0 and 1 ended and ended before 3 started: nothing else was in flight beside it.
    const at = (what: string) => log.indexOf(what);
    expect(at('start 2')).toBeGreaterThan(Math.max(at('end 0'), at('end 1')));
    expect(at('end 2')).toBeLessThan(at('start 3'));
    // The others still ran several at once.
    expect(g.most()).toBe(3);
  });

  it('a task waiting to run alone never starts once stopped', async () => {
    const g = gated();
    const stop = new AbortController();
    const pool = inOrderPool(4, 2, stop.signal, g.task, (i) => i === 1);
    await g.settle();
    expect(g.started).toEqual([0]);
    stop.abort();
    expect(await pool).toEqual(['0 stopped']);
    expect(g.started).toEqual([0]);
  });

  it('a task that releases its place lets the next start beside it, and the pool waits for both', async () => {
    const log: string[] = [];
    const ends: (() => void)[] = [];
    const task = async (i: number, _signal: AbortSignal, release: () => void) => {
      log.push(`start ${i}`);
      release(); // the rest only waits, as a drain does
      await new Promise<void>((resolve) => {
        ends[i] = resolve;
      });
      log.push(`end ${i}`);
      return i;
    };
    const pool = inOrderPool(3, 1, new AbortController().signal, task);
    const settle = () => new Promise((r) => setImmediate(r));
    await settle();
    // One job, yet all three started: each released its place before it ended.
    expect(log).toEqual(['start 0', 'start 1', 'start 2']);
    let done = false;
    void pool.then(() => {
      done = true;
    });
    ends[2]();
    ends[1]();
    await settle();
    expect(done).toBe(false); // task 0 is still running
    ends[0]();
    expect(await pool).toEqual([0, 1, 2]);
  });

  it('a task that never releases holds its place (one job: strictly one after another)', async () => {
    const g = gated();
    const pool = inOrderPool(3, 1, new AbortController().signal, g.task);
    await g.settle();
    expect(g.started).toEqual([0]);
    g.ends[0]();
    await g.settle();
    expect(g.started).toEqual([0, 1]);
    g.ends[1]();
    await g.settle();
    g.ends[2]();
    expect(await pool).toHaveLength(3);
    expect(g.most()).toBe(1);
  });

  it('a task alone ignores its release: nothing starts beside it', async () => {
    const log: string[] = [];
    const ends: (() => void)[] = [];
    const task = async (i: number, _signal: AbortSignal, release: () => void) => {
      log.push(`start ${i}`);
      release();
      await new Promise<void>((resolve) => {
        ends[i] = resolve;
      });
      log.push(`end ${i}`);
      return i;
    };
    const pool = inOrderPool(3, 1, new AbortController().signal, task, (i) => i === 1);
    const settle = () => new Promise((r) => setImmediate(r));
    await settle();
    // Task 0 released, but task 1 runs alone: it waits for task 0 to end.
    expect(log).toEqual(['start 0']);
    ends[0]();
    await settle();
    expect(log).toEqual(['start 0', 'end 0', 'start 1']);
    ends[1]();
    await settle();
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2']);
    ends[2]();
    expect(await pool).toEqual([0, 1, 2]);
  });
});
