// The reference server's error contract, in one place: for each injected fault (and the validation, unknown-tool
// and not-found cases), what the server answers. The contract suite checks the server against it, and the
// README's "Error contract" table is generated from it (a test keeps them equal).
import type { DependencyFaultSpecInput } from '../../mocks/faults/registry.ts';

// Omit per member, so each fault kind keeps its own parameters.
type FaultSpec = DependencyFaultSpecInput extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

export interface ContractRow {
  /** What goes wrong, as the README says it. */
  fault: string;
  /** The dependency fault to inject (none for the model-side cases). */
  inject?: FaultSpec;
  tool: 'create_payment' | 'search_documents' | 'no_such_tool';
  /** Argument overrides (bad arguments, unknown customer). */
  args?: Record<string, unknown>;
  answer: 'isError result' | 'JSON-RPC error -32602';
  category: string;
  errorCode: string;
  retryable: boolean;
  /** retryAfterMs must lie in this range (the fault advised a delay). */
  retryAfterMs?: [number, number];
  /** details.uncertain: the effect may exist. */
  uncertain?: boolean;
  /** Effects the call leaves in the ledger. */
  effects: number;
}

const pay = 'create_payment' as const;
const payments = { dependency: 'payments' } as const;

export const CONTRACT: readonly ContractRow[] = [
  {
    fault: 'HTTP 503 before the effect',
    inject: { ...payments, kind: 'status', status: 503 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.UNAVAILABLE',
    retryable: true,
    uncertain: true,
    effects: 0,
  },
  {
    fault: 'HTTP 502 before the effect',
    inject: { ...payments, kind: 'status', status: 502 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.UNAVAILABLE',
    retryable: true,
    uncertain: true,
    effects: 0,
  },
  {
    fault: 'HTTP 502 after the effect (commit-then-fail)',
    inject: { ...payments, kind: 'commit-then-fail', status: 502 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.UNAVAILABLE',
    retryable: true,
    uncertain: true,
    effects: 1,
  },
  {
    fault: 'latency past the dependency timeout',
    inject: { ...payments, kind: 'latency', ms: 1500 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.TIMEOUT',
    retryable: true,
    uncertain: true,
    effects: 0,
  },
  {
    fault: 'hang',
    inject: { ...payments, kind: 'hang' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.TIMEOUT',
    retryable: true,
    uncertain: true,
    effects: 0,
  },
  {
    fault: 'effect, then an answer too late (commit-then-delay)',
    inject: { ...payments, kind: 'commit-then-delay', ms: 1500 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.TIMEOUT',
    retryable: true,
    uncertain: true,
    effects: 1,
  },
  {
    fault: '429, Retry-After in seconds',
    inject: { ...payments, kind: 'rate-limit', retryAfterS: 2 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.RATE_LIMITED',
    retryable: true,
    retryAfterMs: [2000, 2000],
    effects: 0,
  },
  {
    fault: '429, Retry-After as an HTTP-date',
    inject: { ...payments, kind: 'rate-limit', retryAfterS: 3, form: 'http-date' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.RATE_LIMITED',
    retryable: true,
    retryAfterMs: [1500, 4000],
    effects: 0,
  },
  {
    fault: 'network error: connection refused',
    inject: { ...payments, kind: 'network-error' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.NETWORK',
    retryable: true,
    effects: 0,
  },
  {
    // The server cannot tell a reset before the dependency acted from one after: it says the effect may exist.
    fault: 'network error: connection reset after the effect',
    inject: { ...payments, kind: 'network-error', when: 'after' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.NETWORK',
    retryable: true,
    uncertain: true,
    effects: 1,
  },
  {
    fault: 'flap (fail N, then succeed): a failing call',
    inject: { ...payments, kind: 'flap', failTimes: 1, status: 503 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.UNAVAILABLE',
    retryable: true,
    uncertain: true,
    effects: 0,
  },
  {
    fault: 'access token expired (auth-expiry)',
    inject: { dependency: '*', kind: 'auth-expiry', ttlMs: 0 },
    tool: pay,
    answer: 'isError result',
    category: 'AUTH',
    errorCode: 'AUTH.TOKEN_EXPIRED',
    retryable: false,
    effects: 0,
  },
  {
    fault: 'HTTP 401',
    inject: { ...payments, kind: 'status', status: 401 },
    tool: pay,
    answer: 'isError result',
    category: 'AUTH',
    errorCode: 'AUTH.TOKEN_EXPIRED',
    retryable: false,
    effects: 0,
  },
  {
    fault: 'HTTP 403',
    inject: { ...payments, kind: 'status', status: 403 },
    tool: pay,
    answer: 'isError result',
    category: 'AUTH',
    errorCode: 'AUTH.FORBIDDEN',
    retryable: false,
    effects: 0,
  },
  {
    fault: 'HTTP 409',
    inject: { ...payments, kind: 'status', status: 409 },
    tool: pay,
    answer: 'isError result',
    category: 'RESOURCE',
    errorCode: 'RESOURCE.CONFLICT',
    retryable: false,
    effects: 0,
  },
  {
    fault: 'HTTP 400 from the dependency',
    inject: { ...payments, kind: 'status', status: 400 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.REJECTED',
    retryable: false,
    effects: 0,
  },
  {
    fault: 'malformed: invalid JSON',
    inject: { ...payments, kind: 'malformed', variant: 'invalid-json' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.BAD_RESPONSE',
    retryable: true,
    uncertain: true,
    effects: 1,
  },
  {
    fault: 'malformed: control characters',
    inject: { ...payments, kind: 'malformed', variant: 'control-chars' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.BAD_RESPONSE',
    retryable: true,
    uncertain: true,
    effects: 1,
  },
  {
    fault: 'malformed: truncated body',
    inject: { ...payments, kind: 'malformed', variant: 'truncated' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.BAD_RESPONSE',
    retryable: true,
    uncertain: true,
    effects: 1,
  },
  {
    fault: 'malformed: wrong content type',
    inject: { ...payments, kind: 'malformed', variant: 'wrong-content-type' },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.BAD_RESPONSE',
    retryable: true,
    uncertain: true,
    effects: 1,
  },
  {
    fault: 'malformed read (no effect)',
    inject: { dependency: 'search', kind: 'malformed', variant: 'invalid-json', commit: false },
    tool: 'search_documents',
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.BAD_RESPONSE',
    retryable: true,
    uncertain: false,
    effects: 0,
  },
  {
    fault: 'secrets in the error body and headers (leak-canary)',
    inject: { ...payments, kind: 'leak-canary', status: 500 },
    tool: pay,
    answer: 'isError result',
    category: 'DEPENDENCY',
    errorCode: 'DEPENDENCY.UNAVAILABLE',
    retryable: true,
    uncertain: true,
    effects: 0,
  },
  {
    fault: 'invalid arguments (model mistake)',
    tool: pay,
    args: { amount_cents: '1250', currency: 'usd' },
    answer: 'isError result',
    category: 'VALIDATION',
    errorCode: 'VALIDATION.INVALID_ARGUMENTS',
    retryable: false,
    effects: 0,
  },
  {
    fault: 'unknown tool (model mistake)',
    tool: 'no_such_tool',
    answer: 'JSON-RPC error -32602',
    category: 'VALIDATION',
    errorCode: 'VALIDATION.UNKNOWN_TOOL',
    retryable: false,
    effects: 0,
  },
  {
    fault: 'no such customer (not found)',
    tool: pay,
    args: { customer_id: 'cus_unknown_1' },
    answer: 'isError result',
    category: 'RESOURCE',
    errorCode: 'RESOURCE.NOT_FOUND',
    retryable: false,
    effects: 0,
  },
];

export const README_START = '<!-- error-contract:start (generated from test/contract/contract-table.ts) -->';
export const README_END = '<!-- error-contract:end -->';

/** The README table, exactly as it must appear between the markers. */
export function contractMarkdown(): string {
  const rows = CONTRACT.map(
    (r) =>
      `| ${r.fault} | ${r.answer} | ${r.category} | \`${r.errorCode}\` | ${r.retryable ? 'yes' : 'no'}${r.retryAfterMs ? ' (retryAfterMs)' : ''} | ${r.uncertain ? 'yes' : 'no'} |`,
  );
  return [
    '| fault | answer | category | errorCode | retryable | effect may exist (`details.uncertain`) |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
