// Tool errors: the structured ToolError the server returns in `structuredContent`, and the mapping from a failed
// dependency call to a stable `CATEGORY.REASON` code. Clients decide on code, category and retryable only.
import { neverConnected } from '../core/socket-cause.ts';
import type { Category, FieldError, ToolError } from '../core/taxonomy.ts';
import type { InputRequiredAnswer } from './tools/input-required-answer.ts';

export type ToolErrorBody = Omit<ToolError, 'requestId'>;

/** Thrown inside tools; the dispatcher turns it into an isError result. */
export class ToolFailure extends Error {
  constructor(readonly body: ToolErrorBody) {
    super(body.message);
  }
}

export function toolFailure(
  errorCode: `${Category}.${string}`,
  message: string,
  extra: {
    retryable?: boolean;
    retryAfterMs?: number;
    fieldErrors?: FieldError[];
    details?: Record<string, unknown>;
  } = {},
): ToolFailure {
  const category = errorCode.split('.')[0] as Category;
  return new ToolFailure({
    errorCode,
    category,
    message,
    retryable: extra.retryable ?? false,
    ...(extra.retryAfterMs !== undefined && { retryAfterMs: extra.retryAfterMs }),
    ...(extra.fieldErrors && { fieldErrors: extra.fieldErrors }),
    ...(extra.details && { details: extra.details }),
  });
}

/** Thrown by a tool whose call needs the client's input first: answered as is (resultType input_required). */
export class NeedsInput extends Error {
  constructor(readonly result: InputRequiredAnswer) {
    super('input required');
  }
}

/** The caller cancelled the request (extra.signal); the SDK will not send any result. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export type FailureKind = 'status' | 'timeout' | 'network' | 'bad-response';

/** A failed dependency call, as the dependency client saw it. Raw body and headers stay server-side. */
export class DependencyFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly dependency: string,
    readonly info: {
      status?: number;
      apiCode?: string;
      retryAfterMs?: number;
      timeoutMs?: number;
      sideEffecting: boolean;
      rawBody?: string;
      rawHeaders?: Record<string, string>;
      /** A network failure's socket error code (ECONNREFUSED, ECONNRESET, ...), when fetch gave one. */
      cause?: string;
    },
  ) {
    super(`${dependency} ${kind}${info.status ? ` ${info.status}` : ''}`);
  }
}

/**
 * Whether the dependency call can have taken effect, as far as the server can honestly tell:
 *
 * | what the server saw                               | may have acted | why                                      |
 * | ------------------------------------------------- | -------------- | ---------------------------------------- |
 * | no connection (refused, DNS, unreachable)         | no             | the request never left                   |
 * | a 4xx (incl. 401, 409, 422, 429)                  | no             | a refusal: the dependency did not act    |
 * | a 5xx (500, 502, 503, 504, ...)                   | yes            | a gateway's 502 after the commit looks   |
 * |                                                   |                | like a 503 before it; Retry-After or not |
 * | our timeout, a hang                               | yes            | it may be acting right now               |
 * | a reset or drop after connecting (mid-response)   | yes            | the request may have arrived             |
 * | an unreadable answer (bad JSON, wrong type)       | yes            | it answered, so it ran                   |
 *
 * Only side-effecting calls carry the claim (`details.uncertain`); a read has nothing to be unsure about.
 */
export function mayHaveActed(f: DependencyFailure): boolean {
  switch (f.kind) {
    case 'timeout':
    case 'bad-response':
      return true;
    case 'network':
      return !neverConnected(f.info.cause);
    case 'status':
      return (f.info.status ?? 0) >= 500;
  }
}

const CONFLICT_CODES = new Set(['idempotency_key_reused', 'idempotency_conflict']);

export function mapDependencyFailure(f: DependencyFailure, leaky: boolean): ToolFailure {
  const dep = f.dependency;
  const { status, sideEffecting } = f.info;
  const details: Record<string, unknown> = { dependency: dep };
  if (status !== undefined) details.status = status;
  if (f.info.cause !== undefined) details.cause = f.info.cause;
  if (sideEffecting && mayHaveActed(f)) details.uncertain = true;
  if (leaky) {
    // Negative control for the leak scan: raw upstream body and headers reach the model.
    details.upstreamBody = f.info.rawBody;
    details.upstreamHeaders = f.info.rawHeaders;
  }
  const raw = leaky && f.info.rawBody ? ` Upstream said: ${f.info.rawBody}` : '';
  const uncertainHint = details.uncertain
    ? ' The operation may have taken effect: check its status before retrying.'
    : '';
  const opts = { details, retryAfterMs: f.info.retryAfterMs };
  switch (f.kind) {
    case 'timeout':
      return toolFailure(
        'DEPENDENCY.TIMEOUT',
        `The ${dep} service did not answer within ${f.info.timeoutMs} ms.${uncertainHint}${raw}`,
        {
          ...opts,
          retryable: true,
          details: { ...details, timeoutMs: f.info.timeoutMs },
        },
      );
    case 'network':
      return toolFailure(
        'DEPENDENCY.NETWORK',
        neverConnected(f.info.cause)
          ? `Could not reach the ${dep} service: nothing was sent.${raw}`
          : `The connection to the ${dep} service failed.${uncertainHint}${raw}`,
        { ...opts, retryable: true },
      );
    case 'bad-response':
      return toolFailure(
        'DEPENDENCY.BAD_RESPONSE',
        `The ${dep} service sent an unreadable answer.${uncertainHint}${raw}`,
        {
          ...opts,
          retryable: true,
        },
      );
    case 'status':
      break;
  }
  if (status === 401) {
    return toolFailure(
      'AUTH.TOKEN_EXPIRED',
      `The server's credentials for the ${dep} service expired; re-authorise.${raw}`,
      opts,
    );
  }
  if (status === 403) return toolFailure('AUTH.FORBIDDEN', `The ${dep} service refused access.${raw}`, opts);
  if (status === 404)
    return toolFailure('RESOURCE.NOT_FOUND', `The ${dep} service found no such resource.${raw}`, opts);
  if (status === 409 || (status === 422 && CONFLICT_CODES.has(f.info.apiCode ?? ''))) {
    return toolFailure(
      'RESOURCE.CONFLICT',
      `This idempotency_key was already used with different arguments; use a new key for a new operation.${raw}`,
      opts,
    );
  }
  if (status === 429) {
    return toolFailure(
      'DEPENDENCY.RATE_LIMITED',
      `The ${dep} service is rate limiting; retry after the advised delay.${raw}`,
      {
        ...opts,
        retryable: true,
      },
    );
  }
  if (status !== undefined && status >= 500) {
    return toolFailure(
      'DEPENDENCY.UNAVAILABLE',
      `The ${dep} service is unavailable (HTTP ${status}).${uncertainHint}${raw}`,
      {
        ...opts,
        retryable: true,
      },
    );
  }
  if (status !== undefined && status >= 400) {
    return toolFailure('DEPENDENCY.REJECTED', `The ${dep} service rejected the request (HTTP ${status}).${raw}`, opts);
  }
  return toolFailure('INTERNAL.UNEXPECTED', `Unexpected answer from the ${dep} service.${raw}`, opts);
}
