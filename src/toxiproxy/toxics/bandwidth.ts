// bandwidth: at most `rate` KB/s (1 KB = 1000 B). The debt grows by len/rate ms per chunk; chunks larger than
// rate*100 bytes go out in 100 ms slices. Oversleeping is paid back on the next chunk. rate <= 0: unlimited.
import { INTERRUPTED, TIMED_OUT } from '../stub.ts';
import { now } from '../timing.ts';
import type { ToxicKind } from '../toxic.ts';

export const bandwidth: ToxicKind = {
  type: 'bandwidth',
  goName: 'BandwidthToxic',
  attributes: { rate: 'int64' },
  docs: { rate: { describe: 'at most this many KB/s (1 KB = 1000 bytes)', required: true, unit: 'KB/s' } },
  async pipe(stub, attrs) {
    let debtMs = 0;
    for (;;) {
      const chunk = await stub.read();
      if (chunk === INTERRUPTED || chunk === TIMED_OUT) return;
      if (chunk === null) return stub.close();
      const rate = attrs.rate;
      if (rate > 0) stub.hit();
      debtMs = rate <= 0 ? 0 : debtMs + chunk.data.length / rate;
      const sliceBytes = rate * 100;
      while (rate > 0 && chunk.data.length > sliceBytes) {
        if (!(await stub.sleep(100))) return stub.write(chunk);
        stub.write({ data: chunk.data.subarray(0, sliceBytes), ts: chunk.ts });
        chunk.data = chunk.data.subarray(sliceBytes);
        debtMs -= 100;
      }
      const start = now();
      const elapsed = await stub.sleep(debtMs);
      debtMs -= now() - start;
      stub.write(chunk);
      if (!elapsed) return;
    }
  },
};
