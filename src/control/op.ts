// One control operation on a reference server as the protocol declares it: its admin route, its input schema and
// the type of its answer. The IPC channel, the admin HTTP endpoint and its client are derived from the table of these
// (ops/index.ts); the server process answers them with its handlers (server/control/handlers.ts).
import type { z } from 'zod';

declare const ANSWER: unique symbol;
/** The type of an operation's answer; a type only (the server's handler must return it). */
export type Answer<O> = { readonly [ANSWER]?: O };

export function answers<O>(): Answer<O> {
  return {};
}

export interface ControlOp<S extends z.ZodType = z.ZodType, O = unknown> {
  /** The admin HTTP route, e.g. `PUT /faults`; none for an operation that only makes sense over IPC. */
  route?: `${'GET' | 'PUT' | 'POST'} /${string}`;
  /** What the operation takes (validated where it arrives; `z.undefined()` for none). */
  input: S;
  output: Answer<O>;
}

export function defineControlOp<S extends z.ZodType, O>(op: ControlOp<S, O>): ControlOp<S, O> {
  return op;
}

/** A control request that cannot be served: `status` is the admin HTTP answer (400 bad input, 404 not offered). */
export class ControlError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}
