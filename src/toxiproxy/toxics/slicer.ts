// slicer: split each chunk into slices of about average_size ± size_variation bytes (recursive halving) and
// wait `delay` microseconds after each slice.
import type { RandomStream } from '../../core/random.ts';
import { INTERRUPTED, TIMED_OUT } from '../stub.ts';
import type { Attributes, ToxicKind } from '../toxic.ts';

/** Slice boundaries as [start, end, start, end, ...], exactly as Toxiproxy's SlicerToxic.chunk. */
function sliceBounds(start: number, end: number, attrs: Readonly<Attributes>, random: RandomStream): number[] {
  const { average_size: average, size_variation: variation } = attrs;
  if (end - start - average <= variation) return [start, end];
  let mid = start + Math.floor((end - start) / 2);
  if (variation > 0) mid += random.int('slice', -variation, variation - 1);
  return [...sliceBounds(start, mid, attrs, random), ...sliceBounds(mid, end, attrs, random)];
}

export const slicer: ToxicKind = {
  type: 'slicer',
  goName: 'SlicerToxic',
  attributes: { average_size: 'int', size_variation: 'int', delay: 'int' },
  docs: {
    average_size: { describe: 'average slice size, bytes', required: true, min: 1, unit: 'bytes' },
    size_variation: { describe: 'random spread of the slice size (±), bytes', unit: 'bytes' },
    delay: { describe: 'wait after each slice, microseconds', unit: 'us' },
  },
  async pipe(stub, attrs) {
    for (;;) {
      const chunk = await stub.read();
      if (chunk === INTERRUPTED || chunk === TIMED_OUT) return;
      if (chunk === null) return stub.close();
      const bounds = sliceBounds(0, chunk.data.length, attrs, stub.random!);
      if (bounds.length > 2 || attrs.delay > 0) stub.hit();
      for (let i = 1; i < bounds.length; i += 2) {
        stub.write({ data: chunk.data.subarray(bounds[i - 1], bounds[i]), ts: chunk.ts });
        if (!(await stub.sleep(attrs.delay / 1000))) {
          if (bounds[i] < chunk.data.length) stub.write({ data: chunk.data.subarray(bounds[i]), ts: chunk.ts });
          return;
        }
      }
    }
  },
};
