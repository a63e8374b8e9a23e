// The one request-body reader: decodes JSON (empty is null), takes a decoder, and stops at its size limit.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonRpcError, jsonRpcErrorBody } from '../../../src/core/json-rpc.ts';
import { BodyTooLarge, readBody } from '../../../src/core/read-body.ts';

const body = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

describe('readBody', () => {
  it('decodes JSON across chunks; an empty body is null', async () => {
    expect(await readBody(body('[{"id":', '"a"}]'))).toEqual([{ id: 'a' }]);
    expect(await readBody(body())).toBeNull();
  });

  it('throws BodyTooLarge past the limit, and accepts exactly the limit', async () => {
    await expect(readBody(body('12345', '67'), { limitBytes: 6 })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(await readBody(body('123456'), { limitBytes: 6 })).toBe(123456);
  });

  it('uses the given decoder, and a decoder error propagates', async () => {
    expect(await readBody(body('a b'), { parse: (t) => t.split(' ') })).toEqual(['a', 'b']);
    await expect(readBody(body('{'))).rejects.toBeInstanceOf(SyntaxError);
  });
});

describe('jsonRpcError', () => {
  it('is a JSON-RPC error with a null id, as a Response with status and headers', async () => {
    expect(JSON.parse(jsonRpcErrorBody(-32001, 'Session not found'))).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found' },
      id: null,
    });
    const response = jsonRpcError(429, 'slow down', { 'retry-after': '1' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'slow down' }, id: null });
  });
});
