// The client-side stdio Transport decorator: which requests it tags (seeded, per rule), what it leaves alone,
// and how it names a framing failure for the requests in flight.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { DecisionLog } from '../../../../src/core/decision-log.ts';
import { StdioEdgeController, type StdioRule } from '../../../../src/faults/edge/stdio/decorator.ts';
import { STDIO_FAULT_META } from '../../../../src/faults/edge/stdio/directive.ts';
import { stdioFaultOf } from '../../../../src/faults/edge/stdio/index.ts';

class FakeTransport implements Transport {
  sent: JSONRPCMessage[] = [];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  async start(): Promise<void> {}
  async close(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
}

const call = (id: number, name = 'create_payment'): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, _meta: { 'faultline/traceId': `op-${id}` } },
});

function rule(seed: number, probability: number, over: Partial<StdioRule> = {}): StdioRule {
  return {
    id: 'r1',
    methods: ['tools/call'],
    probability,
    random: new DecisionLog(seed).stream('fault/r1'),
    directive: { kind: 'malformed-line', mode: 'before', text: 'oops' },
    ...over,
  };
}

function wrapped(controller: StdioEdgeController) {
  const inner = new FakeTransport();
  const outer = controller.wrap(inner);
  const received: JSONRPCMessage[] = [];
  outer.onmessage = (m) => received.push(m);
  return { inner, outer, received };
}

describe('stdio edge decorator (client side)', () => {
  it('passes everything through untouched when no rule is active', async () => {
    const { inner, outer } = wrapped(new StdioEdgeController());
    const message = call(1);
    await outer.send(message);
    expect(inner.sent[0]).toBe(message);
  });

  it('tags only the methods a rule names, keeping the existing _meta', async () => {
    const controller = new StdioEdgeController();
    controller.add(rule(1, 1));
    const { inner, outer } = wrapped(controller);
    await outer.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } as JSONRPCMessage);
    await outer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await outer.send(call(1));
    expect(stdioFaultOf((inner.sent[0] as { params?: { _meta?: unknown } }).params?._meta)).toBeUndefined();
    expect(inner.sent[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const meta = (inner.sent[2] as { params: { _meta: Record<string, unknown> } }).params._meta;
    expect(meta['faultline/traceId']).toBe('op-1');
    expect(meta[STDIO_FAULT_META]).toEqual({ kind: 'malformed-line', mode: 'before', text: 'oops' });
    expect(controller.tally.tagged).toEqual({ 'malformed-line': 1 });
    expect(controller.hits.of('r1')).toBe(1); // the rule's hits: the one request it tagged
  });

  it('a rule that matches no request counts no hit (the negative control)', async () => {
    const controller = new StdioEdgeController();
    controller.add(rule(1, 1, { methods: ['resources/read'] }));
    const { outer } = wrapped(controller);
    for (let i = 0; i < 3; i++) await outer.send(call(i));
    expect(controller.hits.of('r1')).toBe(0);
  });

  it('draws from the rule stream: the same seed tags the same requests, removal stops tagging', async () => {
    const tagged = async (seed: number) => {
      const controller = new StdioEdgeController();
      controller.add(rule(seed, 0.5));
      const { inner, outer } = wrapped(controller);
      for (let i = 0; i < 40; i++) await outer.send(call(i));
      controller.remove('r1');
      for (let i = 40; i < 50; i++) await outer.send(call(i));
      const marks = inner.sent.map(
        (m) => stdioFaultOf((m as { params: { _meta: unknown } }).params._meta) !== undefined,
      );
      expect(controller.hits.of('r1')).toBe(marks.filter(Boolean).length); // hits = requests tagged
      return marks;
    };
    const a = await tagged(7);
    expect(await tagged(7)).toEqual(a);
    const hits = a.slice(0, 40).filter(Boolean).length;
    expect(hits).toBeGreaterThan(8); // p = 0.5 over 40 draws
    expect(hits).toBeLessThan(32);
    expect(a.slice(40).some(Boolean)).toBe(false);
    expect(await tagged(8)).not.toEqual(a);
  });

  it('answers requests in flight with the framing cause when the reader refuses an oversized line', async () => {
    const controller = new StdioEdgeController();
    const { inner, outer, received } = wrapped(controller);
    const errors: Error[] = [];
    outer.onerror = (e) => errors.push(e);
    await outer.send(call(1));
    await outer.send(call(2));
    inner.onmessage?.({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    inner.onerror?.(new SyntaxError('Unexpected token d in JSON'));
    expect(received).toHaveLength(1); // a malformed line: reported, nothing answered
    inner.onerror?.(new Error('ReadBuffer exceeded maximum size of 10485760 bytes'));
    expect(errors).toHaveLength(2);
    expect(received[1]).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: expect.stringMatching(/^stdio framing: ReadBuffer exceeded maximum size/) },
    });
    expect(controller.tally).toMatchObject({ malformedLines: 1, oversizedLines: 1, otherErrors: 0 });
  });

  it('remembers the negotiated protocol version for the connection', () => {
    const outer = new StdioEdgeController().wrap(new FakeTransport()) as Transport & { protocolVersion?: string };
    outer.setProtocolVersion?.('2025-11-25');
    expect(outer.protocolVersion).toBe('2025-11-25');
  });
});
