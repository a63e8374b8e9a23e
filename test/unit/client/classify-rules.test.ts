// One test per row of classifyError's table: each row's example is taken by that row (no earlier row takes it)
// and gives the row's code. A row without an example, or an example without a row, fails the first test.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { AttemptHttp } from '../../../src/client/attempt-http.ts';
import { classifyError } from '../../../src/client/classify.ts';
import { CLASSIFY_RULES } from '../../../src/client/classify-rules/index.ts';
import { seenOf } from '../../../src/client/classify-rules/rule.ts';
import { AmbiguousDiscovery } from '../../../src/client/discovery-tap.ts';
import { TaskCancelledError } from '../../../src/client/task-cancelled.ts';
import { ProtocolVersionRejected } from '../../../src/core/protocol-mismatch.ts';

const body = (code: number, message: string) =>
  `Error POSTing to endpoint: ${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}`;

interface Example {
  error: unknown;
  http?: AttemptHttp;
  expected: Record<string, unknown>;
}

const EXAMPLES: Record<string, Example> = {
  'answer-lost': {
    // What SDK 1.32 rejects the ended call with (LINK.CLOSED's code), from an attempt whose answer stream broke.
    error: new McpError(-32000, 'the stream carrying the answer broke off before the answer'),
    http: { answerLost: true },
    expected: { category: 'LINK', errorCode: 'LINK.ANSWER_LOST', retryable: true, uncertain: true },
  },
  'discovery-ambiguous': {
    error: new AmbiguousDiscovery('HTTP 400'),
    expected: { errorCode: 'PROTO.DISCOVERY_AMBIGUOUS', retryable: true, uncertain: false },
  },
  'pin-not-offered': {
    error: new Error('the server did not offer pinned protocol version 2026-07-28 via server/discover'),
    expected: { errorCode: 'PROTO.PIN_NOT_OFFERED', retryable: true, renegotiate: true },
  },
  'version-unsupported': {
    error: new ProtocolVersionRejected('2025-06-18', '1999-01-01', ['2025-06-18']),
    expected: { errorCode: 'PROTO.VERSION_UNSUPPORTED', retryable: false, uncertain: false },
  },
  'http-version-refused': {
    error: new StreamableHTTPError(400, body(-32022, 'Unsupported protocol version')),
    expected: { errorCode: 'PROTO.VERSION_REFUSED', retryable: true, renegotiate: true },
  },
  'http-not-initialized': {
    error: new StreamableHTTPError(400, body(-32000, 'Bad Request: Server not initialized')),
    expected: { errorCode: 'PROTO.NOT_INITIALIZED', retryable: true, uncertain: false },
  },
  'http-bad-protocol-version': {
    error: new StreamableHTTPError(400, 'Bad Request: Unsupported protocol version (supported: 2025-06-18)'),
    expected: { errorCode: 'PROTO.BAD_PROTOCOL_VERSION', retryable: false, renegotiate: true },
  },
  'http-session-not-found': {
    error: new StreamableHTTPError(404, 'Session not found'),
    expected: { errorCode: 'PROTO.SESSION_NOT_FOUND', retryable: true, sessionLost: true },
  },
  'http-rate-limited': {
    error: new StreamableHTTPError(429, 'Too Many Requests'),
    http: { retryAfterMs: 1500 },
    expected: { errorCode: 'DEPENDENCY.RATE_LIMITED', retryAfterMs: 1500, uncertain: false },
  },
  'http-5xx': {
    error: new StreamableHTTPError(502, 'Bad Gateway'),
    expected: { category: 'EDGE', errorCode: 'EDGE.HTTP_502', retryable: true, uncertain: true },
  },
  'http-payload-too-large': {
    error: new StreamableHTTPError(413, 'Payload Too Large'),
    expected: { errorCode: 'VALIDATION.PAYLOAD_TOO_LARGE', retryable: false, uncertain: false },
  },
  'http-other': {
    error: new StreamableHTTPError(401, 'Unauthorized'),
    expected: { errorCode: 'PROTO.HTTP_401', retryable: false, uncertain: false },
  },
  'jsonrpc-timeout': {
    error: new McpError(-32001, 'Request timed out'),
    expected: { errorCode: 'LINK.TIMEOUT', retryable: true, uncertain: true },
  },
  'jsonrpc-closed': {
    error: new McpError(-32000, 'Connection closed'),
    expected: { errorCode: 'LINK.CLOSED', uncertain: true, transportLost: true },
  },
  'jsonrpc-version-refused': {
    error: new McpError(-32022, 'Unsupported protocol version'),
    expected: { errorCode: 'PROTO.VERSION_REFUSED', renegotiate: true },
  },
  'jsonrpc-header-mismatch': {
    error: new McpError(-32020, 'Mcp-Method header does not match the body'),
    expected: { errorCode: 'PROTO.HEADER_MISMATCH', retryable: true, uncertain: false },
  },
  'jsonrpc-unknown-tool': {
    error: new McpError(-32602, 'Tool nope not found'),
    expected: { errorCode: 'VALIDATION.UNKNOWN_TOOL', retryable: false, uncertain: false },
  },
  'jsonrpc-other': {
    error: new McpError(-32603, 'Internal error'),
    expected: { errorCode: 'PROTO.JSONRPC_32603', retryable: false, uncertain: true },
  },
  'fetch-failed': {
    error: new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
    expected: { errorCode: 'LINK.REFUSED', cause: 'ECONNREFUSED', uncertain: false, transportLost: true },
  },
  'not-connected': {
    error: new Error('Not connected'),
    expected: { errorCode: 'LINK.NOT_CONNECTED', retryable: true, uncertain: false },
  },
  'task-cancelled': {
    error: new TaskCancelledError('task_1', 'Cancelled by the client; nothing was charged.'),
    expected: { category: 'RESOURCE', errorCode: 'RESOURCE.TASK_CANCELLED', retryable: false, uncertain: false },
  },
  'anything-else': {
    error: new Error('something nobody planned for'),
    expected: { category: 'INTERNAL', errorCode: 'INTERNAL.CLIENT', retryable: false, uncertain: true },
  },
};

describe('classify rules: one example per row', () => {
  it('every row has an example and every example a row, with unique names', () => {
    const names = CLASSIFY_RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  it('the last row takes anything, so every error has a classification', () => {
    const seen = seenOf(Symbol('odd'), {});
    expect(CLASSIFY_RULES.at(-1)?.matches(seen)).toBe(true);
  });

  for (const rule of CLASSIFY_RULES) {
    it(`${rule.name}: its example is taken by this row first and classified as the row says`, () => {
      const example = EXAMPLES[rule.name];
      expect(example, `no example for row ${rule.name}`).toBeDefined();
      const seen = seenOf(example.error, example.http ?? {});
      expect(CLASSIFY_RULES.find((r) => r.matches(seen))?.name).toBe(rule.name);
      expect(classifyError(example.error, example.http)).toMatchObject({ ok: false, ...example.expected });
    });
  }
});
