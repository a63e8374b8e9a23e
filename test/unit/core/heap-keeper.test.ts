// The heap keeper (core/heap-keeper.ts) runs a full collection when the used heap has grown past the live size of
// its last collection by its margin, and only then; it runs only when asked for (FAULTLINE_HEAP_KEEPER=on).
import { getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import {
  collectBetweenPasses,
  collectIfGrown,
  heapKeeperStats,
  keepHeapSmall,
  stopHeapKeeper,
} from '../../../src/core/heap-keeper.ts';

const MiB = 1024 * 1024;
const used = () => getHeapStatistics().used_heap_size;
/** About 20 MiB of small objects. */
const allocate = () => Array.from({ length: 200_000 }, (_, i) => ({ i, text: `record ${i}` }));

afterEach(() => stopHeapKeeper());

describe('heap keeper', () => {
  it('collects once the heap has grown past its margin, not before, and frees what is garbage', () => {
    keepHeapSmall({ everyMs: 60_000, growth: 0, minGrowthBytes: 8 * MiB }, { FAULTLINE_HEAP_KEEPER: 'on' });
    collectIfGrown();
    expect(heapKeeperStats()?.collections).toBe(0);
    let held: unknown[] | undefined = allocate();
    collectIfGrown();
    expect(heapKeeperStats()?.collections).toBe(1);
    const withHeld = used();
    held = undefined;
    expect(held).toBeUndefined();
    allocate();
    const before = used();
    collectIfGrown();
    expect(heapKeeperStats()?.collections).toBe(2);
    // Both 20 MiB batches are garbage now: the collection gave back far more than the margin.
    expect(before - used()).toBeGreaterThan(16 * MiB);
    expect(used()).toBeLessThan(withHeld);
  });

  it('collects sooner when a long pass asks with a narrower margin (never under the minimum in bytes)', () => {
    keepHeapSmall({ everyMs: 60_000, growth: 100, minGrowthBytes: 8 * MiB }, { FAULTLINE_HEAP_KEEPER: 'on' });
    const held = allocate();
    collectIfGrown();
    expect(heapKeeperStats()?.collections).toBe(0); // the keeper's own margin: 100 times the live size
    collectIfGrown(0);
    expect(heapKeeperStats()?.collections).toBe(1);
    collectIfGrown(0); // nothing has grown since: the 8 MiB minimum still holds
    expect(heapKeeperStats()?.collections).toBe(1);
    expect(held).toHaveLength(200_000);
  });

  it("collects between the passes of a run's end with the narrower margin", () => {
    keepHeapSmall({ everyMs: 60_000, growth: 100, minGrowthBytes: 8 * MiB }, { FAULTLINE_HEAP_KEEPER: 'on' });
    const held = allocate();
    collectIfGrown();
    expect(heapKeeperStats()?.collections).toBe(0);
    collectBetweenPasses();
    expect(heapKeeperStats()?.collections).toBe(1);
    expect(held).toHaveLength(200_000);
  });

  it('does nothing unless asked for (control)', () => {
    allocate();
    collectIfGrown();
    expect(heapKeeperStats()).toBeUndefined();
    keepHeapSmall({ minGrowthBytes: MiB }, {});
    allocate();
    collectIfGrown();
    collectBetweenPasses();
    expect(heapKeeperStats()).toBeUndefined();
    keepHeapSmall({ minGrowthBytes: MiB }, { FAULTLINE_HEAP_KEEPER: 'off' });
    allocate();
    collectIfGrown();
    expect(heapKeeperStats()).toBeUndefined();
  });
});
