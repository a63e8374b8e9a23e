// slow_close: data flows untouched; when the source ends, closing the other side waits `delay` ms.
import { INTERRUPTED, TIMED_OUT } from '../stub.ts';
import type { ToxicKind } from '../toxic.ts';

export const slowClose: ToxicKind = {
  type: 'slow_close',
  goName: 'SlowCloseToxic',
  attributes: { delay: 'int64' },
  docs: { delay: { describe: 'delay before the close reaches the other side, ms', required: true, unit: 'ms' } },
  async pipe(stub, attrs) {
    for (;;) {
      const chunk = await stub.read();
      if (chunk === INTERRUPTED || chunk === TIMED_OUT) return;
      if (chunk === null) {
        if (attrs.delay > 0) stub.hit();
        if (await stub.sleep(attrs.delay)) stub.close();
        return;
      }
      stub.write(chunk);
    }
  },
};
