// A profile run's tear-down: whatever stage fails, every part that came up goes down, last up first down, and the
// stage's own error is what the caller sees. Controls: a run that ends takes its parts down too, and parts that
// never came up are not touched.
import { describe, expect, it } from 'vitest';
import { type RunParts, withTeardown } from '../../../src/run/teardown.ts';

/** Every part of a run, each noting its tear-down in `downs`; `failing` names one whose tear-down throws. */
function allParts(downs: string[], failing?: string): Required<RunParts> {
  const down = async (name: string) => {
    downs.push(name);
    if (name === failing) throw new Error(`${name} would not go down`);
  };
  return {
    removeWorkdir: () => {
      downs.push('workdir');
    },
    backend: { close: () => down('backend') },
    env: { close: () => down('env') },
    userClient: { close: () => down('userClient') },
    driver: { clear: () => down('driver') },
    sampler: { finish: () => down('sampler') },
    listener: { stop: () => down('listener') },
    harnessLag: { stop: () => downs.push('harnessLag') },
  };
}

const EVERY_PART_DOWN = ['harnessLag', 'driver', 'sampler', 'listener', 'userClient', 'env', 'backend', 'workdir'];

describe('run tear-down', () => {
  it('a run that ends takes every part down, last up first down', async () => {
    const downs: string[] = [];
    const result = await withTeardown(async (parts) => {
      Object.assign(parts, allParts(downs));
      return 'report';
    });
    expect(result).toBe('report');
    expect(downs).toEqual(EVERY_PART_DOWN);
  });

  it('a stage that fails after everything came up still takes every part down, and its error is the one thrown', async () => {
    const downs: string[] = [];
    const run = withTeardown(async (parts) => {
      Object.assign(parts, allParts(downs));
      throw new Error('the workload stage failed');
    });
    await expect(run).rejects.toThrow('the workload stage failed');
    expect(downs).toEqual(EVERY_PART_DOWN);
  });

  it('a stage that fails half-way takes down only what came up (the environment failed to start)', async () => {
    const downs: string[] = [];
    const run = withTeardown(async (parts) => {
      const { removeWorkdir, backend } = allParts(downs);
      Object.assign(parts, { removeWorkdir, backend });
      throw new Error('the environment did not start');
    });
    await expect(run).rejects.toThrow('the environment did not start');
    expect(downs).toEqual(['backend', 'workdir']);
  });

  it('a part that will not go down does not keep the rest up; its failure is thrown once all ran', async () => {
    const downs: string[] = [];
    const run = withTeardown(async (parts) => {
      Object.assign(parts, allParts(downs, 'env'));
      return 'report';
    });
    await expect(run).rejects.toThrow('env would not go down');
    expect(downs).toEqual(EVERY_PART_DOWN);
  });

  it('a fault that will not come off is not a tear-down failure (the run reports it)', async () => {
    const downs: string[] = [];
    const result = await withTeardown(async (parts) => {
      Object.assign(parts, allParts(downs, 'driver'));
      return 'report';
    });
    expect(result).toBe('report');
    expect(downs).toEqual(EVERY_PART_DOWN);
  });
});
