// limit_data: pass exactly `bytes` bytes per connection and direction (truncating the last chunk), then close.
import { INTERRUPTED, TIMED_OUT } from '../stub.ts';
import type { ToxicKind } from '../toxic.ts';

interface LimitState {
  transmitted: number;
}

export const limitData: ToxicKind = {
  type: 'limit_data',
  goName: 'LimitDataToxic',
  attributes: { bytes: 'int64' },
  docs: {
    bytes: {
      describe: 'bytes let through per connection and direction, then it closes',
      required: true,
      unit: 'bytes',
    },
  },
  newState: (): LimitState => ({ transmitted: 0 }),
  async pipe(stub, attrs) {
    const state = stub.state as LimitState;
    for (;;) {
      const chunk = await stub.read();
      if (chunk === INTERRUPTED || chunk === TIMED_OUT) return;
      if (chunk === null) return stub.close();
      const remaining = Math.max(0, attrs.bytes - state.transmitted);
      const data = remaining < chunk.data.length ? chunk.data.subarray(0, remaining) : chunk.data;
      if (data.length > 0) {
        stub.write({ data, ts: chunk.ts });
        state.transmitted += data.length;
      }
      if (attrs.bytes - state.transmitted <= 0) {
        stub.hit();
        return stub.close();
      }
    }
  },
};
