// The harness's stdio transport when the child's stdin is gone before its 'close' is seen (a killed server, the
// moment after): a request written then fails with EPIPE, never read by the child. It must fail as "nothing sent,
// reconnect" (LINK.NOT_CONNECTED), not as an unknown client error that leaves a write uncertain (ops_info).
import { afterEach, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/client/classify.ts';
import { StdioEdgeController } from '../../src/faults/edge/stdio/controller.ts';
import { InterposedStdioTransport } from '../../src/targets/stdio-transport.ts';

/** A child that closes its stdin at once and lives on (its stdout open, so the transport sees no 'close'). */
const STDIN_CLOSER = "require('node:fs').closeSync(0); process.stdout.write('ready\\n'); setInterval(() => {}, 1000);";

let transport: InterposedStdioTransport | undefined;
afterEach(async () => {
  await transport?.close();
  transport = undefined;
});

describe('InterposedStdioTransport: a request to a child whose stdin is closed', () => {
  it('rejects as not connected (not sent, not uncertain), the transport still open', async () => {
    transport = new InterposedStdioTransport(
      { command: process.execPath, args: ['-e', STDIN_CLOSER] },
      new StdioEdgeController(),
    );
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    transport.onerror = () => {};
    const ready = new Promise<void>((resolve) => {
      transport!.onmessage = () => {};
      transport!.onerror = () => resolve();
    });
    await transport.start();
    // The reader reports "ready" (not JSON) on onerror: the child has closed its stdin by then.
    await ready;
    const sent = await transport
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_payment', arguments: {} } })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(closed).toBe(false);
    expect(sent).toBeInstanceOf(Error);
    expect(sent?.message).toMatch(/EPIPE/);
    expect(classifyError(sent)).toMatchObject({
      errorCode: 'LINK.NOT_CONNECTED',
      retryable: true,
      uncertain: false,
      transportLost: true,
    });
  });
});
