// One control operation on a reference server: its input schema and its handler inside the server process. The
// IPC channel, the admin HTTP endpoint and its client are derived from the table of these (ops/index.ts).
import type { z } from 'zod';
import type { DependencyWorld } from '../../mocks/world.ts';
import type { McpHttpServer } from '../server/http-server.ts';
import type { ServerRuntime } from '../server/runtime.ts';

/** What a handler reaches: the server process's dependency world, runtime and (not over stdio) HTTP server. */
export interface ControlHost {
  world: DependencyWorld;
  runtime: ServerRuntime;
  /** The Streamable HTTP server; absent over stdio, where behaviour faults are not offered. */
  http?: McpHttpServer;
}

export interface ControlOp<S extends z.ZodType = z.ZodType, O = unknown> {
  /** The admin HTTP route, e.g. `PUT /faults`; none for an operation that only makes sense over IPC. */
  route?: `${'GET' | 'PUT' | 'POST'} /${string}`;
  /** What the operation takes (validated where it arrives; `z.undefined()` for none). */
  input: S;
  handle(host: ControlHost, input: z.output<S>): O | Promise<O>;
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
