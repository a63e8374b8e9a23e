// reset_peer: on the first chunk (or end of stream) in its direction, drop it, wait `timeout` ms and close.
// The connection closes with an RST only when the toxic existed at connection start (SO_LINGER=0 is set then,
// whatever the toxicity: Toxiproxy#603); added to a live connection it closes with a FIN.
import { INTERRUPTED } from '../stub.ts';
import type { ToxicKind } from '../toxic.ts';

export const resetPeer: ToxicKind = {
  type: 'reset_peer',
  goName: 'ResetToxic',
  attributes: { timeout: 'int64' },
  docs: { timeout: { describe: 'wait before the reset, ms', unit: 'ms' } },
  resetsPeer: true,
  async pipe(stub, attrs) {
    const chunk = await stub.read();
    if (chunk === INTERRUPTED) return;
    stub.hit();
    // Go's wait here is a plain time.After: an interrupt waits for it.
    await stub.sleep(attrs.timeout, true);
    stub.close();
  },
};
