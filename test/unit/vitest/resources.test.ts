// The fixture's teardown without processes: runs are aborted and awaited, starts still pending are owned before
// anything is closed, everything closes newest first even when a close fails, and killAll reaches what is owned.
import { describe, expect, it } from 'vitest';
import { type Owned, Resources } from '../../../src/vitest/resources.ts';

function fake(name: string, log: string[], fail = false): Owned {
  return {
    close: async () => {
      log.push(`close ${name}`);
      if (fail) throw new Error(`${name} would not close`);
    },
    kill: () => {
      log.push(`kill ${name}`);
    },
  };
}

describe('Resources', () => {
  it('closes what it owns newest first, going on past a close that fails', async () => {
    const log: string[] = [];
    const resources = new Resources();
    resources.add(fake('server', log));
    resources.add(fake('env', log, true));
    resources.add(fake('client', log));
    await resources.close();
    expect(log).toEqual(['close client', 'close env', 'close server']);
  });

  it('aborts a run still going and waits for it to finish before closing', async () => {
    const log: string[] = [];
    const resources = new Resources();
    resources.add(fake('server', log));
    const run = resources.run(
      (signal) =>
        new Promise<string>((resolve) =>
          signal.addEventListener('abort', () => {
            setTimeout(() => {
              log.push('run torn down');
              resolve('aborted');
            }, 20);
          }),
        ),
    );
    await resources.close();
    expect(await run).toBe('aborted');
    expect(log).toEqual(['run torn down', 'close server']);
  });

  it('owns and closes something whose start finishes after teardown began', async () => {
    const log: string[] = [];
    const resources = new Resources();
    let finish!: (value: string) => void;
    const started = resources.adopt(
      new Promise<string>((resolve) => {
        finish = resolve;
      }),
      (value) => fake(value, log),
    );
    const closing = resources.close();
    setTimeout(() => finish('late env'), 20);
    await closing;
    expect(await started).toBe('late env');
    expect(log).toEqual(['close late env']);
  });

  it('kills everything it owns synchronously (the process-exit safety net), past a kill that throws', () => {
    const log: string[] = [];
    const resources = new Resources();
    resources.add(fake('server', log));
    resources.add({
      close: async () => {},
      kill: () => {
        throw new Error('a url target cannot be killed');
      },
    });
    resources.add(fake('stdio child', log));
    resources.killAll();
    expect(log).toEqual(['kill server', 'kill stdio child']);
  });
});
