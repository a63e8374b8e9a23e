// The order API changes apply in: per proxy, or across the whole collection. Driven by hand-released changes,
// so nothing here depends on timing.
import { describe, expect, it } from 'vitest';
import { ChangeOrder } from '../../../src/toxiproxy/change-order.ts';

/** A change that records when it starts and finishes only when released. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    change: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
    },
    release: () => release(),
  };
}

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('ChangeOrder', () => {
  it('runs changes to one proxy one at a time, in arrival order', async () => {
    const log: string[] = [];
    const order = new ChangeOrder();
    const first = gate(log, 'a1');
    const second = gate(log, 'a2');
    const running = [order.run('a', first.change), order.run('a', second.change)];
    await turns();
    expect(log).toEqual(['start a1']);
    first.release();
    second.release();
    await Promise.all(running);
    expect(log).toEqual(['start a1', 'end a1', 'start a2', 'end a2']);
  });

  it('lets a change to another proxy run while one proxy waits', async () => {
    const log: string[] = [];
    const order = new ChangeOrder();
    const stuck = gate(log, 'a');
    const running = order.run('a', stuck.change);
    await order.run('b', async () => {
      log.push('b');
    });
    expect(log).toEqual(['start a', 'b']);
    stuck.release();
    await running;
  });

  it('runs a collection change after every earlier change, and every later change after it', async () => {
    const log: string[] = [];
    const order = new ChangeOrder();
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const all = gate(log, 'all');
    const running = [
      order.run('a', a.change),
      order.run('b', b.change),
      order.run(undefined, all.change),
      order.run('c', async () => {
        log.push('c');
      }),
    ];
    await turns();
    expect(log).toEqual(['start a', 'start b']);
    a.release();
    await turns();
    expect(log).toEqual(['start a', 'start b', 'end a']);
    b.release();
    await turns();
    expect(log.slice(-2)).toEqual(['end b', 'start all']);
    all.release();
    await Promise.all(running);
    expect(log.slice(-2)).toEqual(['end all', 'c']);
  });
});
