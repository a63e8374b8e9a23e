// SDK 2.4's errors read as their SDK 1.32 counterparts, so one classification serves both clients: the same
// category, errorCode, retryable and uncertainty for the same failure whichever SDK saw it.
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../src/client/classify.ts';
import { asSdk1Error } from '../../../src/client/sdk2-client.ts';

const classified = (error: unknown) => {
  const c = classifyError(asSdk1Error(error));
  return [c.errorCode, c.retryable, c.uncertain];
};

describe('SDK 2.4 errors through the one classification', () => {
  it.each([
    [new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), ['LINK.TIMEOUT', true, true]],
    [new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), ['LINK.CLOSED', true, true]],
    [
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'HTTP 404', { status: 404 }),
      ['PROTO.SESSION_NOT_FOUND', true, false],
    ],
    [
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'HTTP 429', { status: 429 }),
      ['DEPENDENCY.RATE_LIMITED', true, false],
    ],
    [
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'HTTP 503', { status: 503 }),
      ['EDGE.HTTP_503', true, true],
    ],
    [new ProtocolError(-32602, 'Unknown tool: x'), ['VALIDATION.UNKNOWN_TOOL', false, false]],
    // HeaderMismatch is refused before dispatch: nothing ran, so it is retried (another path may not strip).
    [new ProtocolError(-32020, 'Header mismatch'), ['PROTO.HEADER_MISMATCH', true, false]],
    // UnsupportedProtocolVersion on a request: refused before it ran; retried on a connection that negotiates again.
    [
      new UnsupportedProtocolVersionError({ supported: ['2025-11-25'], requested: '2026-07-28' }),
      ['PROTO.VERSION_REFUSED', true, false],
    ],
    [new SdkError(SdkErrorCode.EraNegotiationFailed, 'no overlap'), ['PROTO.VERSION_UNSUPPORTED', false, false]],
    // A discovery probe that met a dead server is a link failure, not a version refusal: it is retried.
    [
      new SdkError(SdkErrorCode.EraNegotiationFailed, 'Version negotiation probe failed: fetch failed', undefined, {
        cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      }),
      ['LINK.REFUSED', true, false],
    ],
    [
      new SdkHttpError(SdkErrorCode.EraNegotiationFailed, 'probe answered HTTP 503', { status: 503 }),
      ['EDGE.HTTP_503', true, true],
    ],
    [
      new SdkError(SdkErrorCode.SendFailed, 'send failed', undefined, {
        cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      }),
      ['LINK.REFUSED', true, false],
    ],
  ])('%s', (error, expected) => {
    expect(classified(error)).toEqual(expected);
  });

  it('keeps the data of a JSON-RPC error (the model sees it)', () => {
    const mapped = asSdk1Error(new ProtocolError(-32602, 'Unknown tool: x', { availableTools: ['a'] }));
    expect((mapped as { data?: unknown }).data).toEqual({ availableTools: ['a'] });
  });
});
