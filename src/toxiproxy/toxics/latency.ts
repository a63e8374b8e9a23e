// latency: delay each chunk by latency + U[-jitter, +jitter) ms, minus the time it already waited, so chunks
// pipeline and a response pays about one delay per direction. Interrupted, it forwards its chunk at once.
import { INTERRUPTED, TIMED_OUT } from '../stub.ts';
import { now } from '../timing.ts';
import type { ToxicKind } from '../toxic.ts';

export const latency: ToxicKind = {
  type: 'latency',
  goName: 'LatencyToxic',
  attributes: { latency: 'int64', jitter: 'int64' },
  docs: {
    latency: { describe: 'delay added to each chunk, ms', required: true, unit: 'ms' },
    jitter: { describe: 'random spread around the delay (±), ms', unit: 'ms' },
  },
  async pipe(stub, attrs) {
    for (;;) {
      const chunk = await stub.read();
      if (chunk === INTERRUPTED || chunk === TIMED_OUT) return;
      if (chunk === null) return stub.close();
      let delay = attrs.latency;
      // Go: rand.Int63n(2*jitter) - jitter, i.e. an integer in [-jitter, jitter).
      if (attrs.jitter > 0) delay += stub.random!.int('jitter', -attrs.jitter, attrs.jitter - 1);
      if (delay > 0) stub.hit();
      const sleep = delay - (now() - chunk.ts);
      if (!(await stub.sleep(sleep))) return stub.write(chunk);
      chunk.ts += sleep;
      stub.write(chunk);
    }
  },
};
