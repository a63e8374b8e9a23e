// Rows for a failed MCP link below JSON-RPC: fetch's network failures and a transport that is not connected.
import { neverConnected, socketCause } from '../../core/socket-cause.ts';
import { ANSWER_LOST_MESSAGE } from '../answer-lost.ts';
import { failure } from '../classified.ts';
import type { ClassifyRule } from './rule.ts';

/**
 * The attempt's answer stream broke off before the answer with nothing to resume from (answer-lost.ts). First in
 * the table: SDK 1.32 rejects the ended call with -32000 and SDK 2.4 with its timeout, which the JSON-RPC rows take.
 */
export const ANSWER_LOST_RULE: ClassifyRule = {
  name: 'answer-lost',
  matches: (s) => s.http.answerLost === true,
  classify: () =>
    failure({
      category: 'LINK',
      errorCode: 'LINK.ANSWER_LOST',
      retryable: true,
      uncertain: true,
      message: ANSWER_LOST_MESSAGE,
    }),
};

export const LINK_RULES: ClassifyRule[] = [
  {
    // fetch's network failures are TypeErrors ("fetch failed") with the socket error as cause. A connection
    // that was never made never carried the request; any other drop may have.
    name: 'fetch-failed',
    matches: (s) => s.from === 'fetch',
    classify: ({ error, message }) => {
      const cause = socketCause(error);
      const unsent = neverConnected(cause);
      return failure({
        category: 'LINK',
        errorCode: unsent ? (cause === 'ECONNREFUSED' ? 'LINK.REFUSED' : 'LINK.UNREACHABLE') : 'LINK.RESET',
        retryable: true,
        uncertain: !unsent,
        transportLost: true,
        message: cause ? `${message} (${cause})` : message,
        ...(cause && { cause }),
      });
    },
  },
  {
    name: 'not-connected',
    matches: (s) => /not connected/i.test(s.message),
    classify: ({ message }) =>
      failure({
        category: 'LINK',
        errorCode: 'LINK.NOT_CONNECTED',
        retryable: true,
        uncertain: false,
        transportLost: true,
        message,
      }),
  },
];
