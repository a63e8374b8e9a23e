// An MCP-edge fault as the client's fetch sees it: given one HTTP exchange with the MCP endpoint, answer
// instead of the server, let the server run and then spoil its answer, or pass it on changed.
import type { RuleBase } from '../rule-base.ts';

export interface EdgeExchange {
  url: string;
  method: string;
  headers: Headers;
  /** JSON-RPC method of a POST (tools/call, initialize, …); undefined for GET/DELETE or batches. */
  rpcMethod?: string;
  body?: string;
  /** The request's logical key (op, attempt, request) when it carries a trace id: what a keyed draw keys on. */
  key?: string;
}

/** Sends the request on (changed); `signal` aborts the real exchange with the server (the client hangs up). */
export type Forward = (init?: {
  headers?: Headers;
  body?: string;
  signal?: AbortSignal;
  /** Another address for the request (a replica behind the same host and port). */
  url?: string;
}) => Promise<Response>;

/** Counts the exchange as hit by the rule: call it where the rule acts (answers, rewrites, cuts). */
type Hit = () => void;

export interface EdgeRule extends RuleBase {
  handle(exchange: EdgeExchange, forward: Forward, hit: Hit): Promise<Response>;
}
