// How a cassette answers as a server. A client request is matched by its method and its params (compared as
// canonical JSON without `_meta`, which carries per-call tokens); `initialize` by its method alone, since client
// names and versions differ between runs. Its JSON-RPC id is never compared: the answer is the recorded response
// with the asking request's id. Identical requests get the recorded answers in the order they were asked, and the
// last one again once those run out. A request the cassette never saw gets a JSON-RPC error that says so: -32601
// when the method was never recorded, -32602 when the method was but never with these params. The cassette holds
// params with their secrets redacted, so an incoming request's are redacted the same way before they are compared.
import { redactSecrets } from '../core/redact.ts';
import { stableStringify } from '../core/stable-hash.ts';
import type { Cassette } from './format.ts';

type JsonRpcMessage = { id?: string | number; method?: string; params?: Record<string, unknown> } & Record<
  string,
  unknown
>;

export const UNRECORDED_METHOD = -32601;
export const UNRECORDED_PARAMS = -32602;

function requestKey(method: string, params: Record<string, unknown> | undefined): string {
  if (method === 'initialize') return method;
  const { _meta, ...rest } = params ?? {};
  return `${method}\0${stableStringify(redactSecrets(rest))}`;
}

export interface CassetteAnswers {
  /** The response to send for this request (its id set), or undefined for a notification. */
  answer(request: JsonRpcMessage): Record<string, unknown> | undefined;
  /** How many requests were answered from the cassette, and how many were not recorded. */
  readonly counts: { matched: number; unmatched: number };
}

export function cassetteAnswers(cassette: Cassette): CassetteAnswers {
  // Answers are kept in the order their requests were sent (a slot per request, filled when its answer comes).
  const slots = new Map<string, Array<Record<string, unknown> | undefined>>();
  const methods = new Set<string>();
  const pending = new Map<string, { key: string; slot: number }>();
  for (const { session, from, message } of cassette.lines) {
    const m = message as JsonRpcMessage;
    if (from === 'client' && m.method !== undefined && m.id !== undefined) {
      const key = requestKey(m.method, m.params);
      const list = slots.get(key) ?? [];
      slots.set(key, list);
      pending.set(`${session}\0${m.id}`, { key, slot: list.push(undefined) - 1 });
      methods.add(m.method);
    } else if (from === 'server' && m.method === undefined && m.id !== undefined) {
      const asked = pending.get(`${session}\0${m.id}`);
      if (asked === undefined) continue;
      pending.delete(`${session}\0${m.id}`);
      const { jsonrpc, id, ...body } = m;
      slots.get(asked.key)![asked.slot] = body;
    }
  }
  // A request whose answer was never recorded (the recording ended first) is as if it had not been sent.
  const recorded = new Map<string, Array<Record<string, unknown>>>();
  for (const [key, list] of slots) {
    const answered = list.filter((body): body is Record<string, unknown> => body !== undefined);
    if (answered.length > 0) recorded.set(key, answered);
  }
  const served = new Map<string, number>();
  const counts = { matched: 0, unmatched: 0 };
  return {
    counts,
    answer(request) {
      if (request.id === undefined || request.method === undefined) return undefined;
      const key = requestKey(request.method, request.params);
      const answers = recorded.get(key);
      if (!answers) {
        counts.unmatched++;
        const [code, what] = methods.has(request.method)
          ? [UNRECORDED_PARAMS, `no recorded ${request.method} with these params`]
          : [UNRECORDED_METHOD, `${request.method} was not recorded`];
        return { jsonrpc: '2.0', id: request.id, error: { code, message: `faultline replay: ${what}` } };
      }
      counts.matched++;
      const n = served.get(key) ?? 0;
      served.set(key, n + 1);
      return { jsonrpc: '2.0', id: request.id, ...answers[Math.min(n, answers.length - 1)] };
    },
  };
}
