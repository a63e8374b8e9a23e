// timeout: drop all data; close the connection after `timeout` ms without input in this direction (each chunk
// restarts the wait, as Go's select on a fresh time.After does); 0 holds it forever (a blackhole). Removing the
// toxic closes the stub, so held connections die rather than recover.
import { INTERRUPTED, TIMED_OUT } from '../stub.ts';
import type { ToxicKind } from '../toxic.ts';

export const timeout: ToxicKind = {
  type: 'timeout',
  goName: 'TimeoutToxic',
  attributes: { timeout: 'int64' },
  docs: {
    timeout: {
      describe: 'close after this long without data, ms (0: hold the data forever)',
      required: true,
      unit: 'ms',
    },
  },
  async pipe(stub, attrs) {
    for (;;) {
      const chunk = await stub.read(attrs.timeout > 0 ? attrs.timeout : undefined);
      if (chunk === INTERRUPTED) return;
      if (chunk === null) return stub.close();
      // Every chunk it swallows, and the close when the wait runs out, is the toxic acting.
      stub.hit();
      if (chunk === TIMED_OUT) return stub.close();
    }
  },
  cleanup(stub) {
    stub.close();
  },
};
