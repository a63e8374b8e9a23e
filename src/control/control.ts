// The control operations as one channel, whatever carries them: in-process (server/control/local-control.ts), the
// IPC channel (ServerHandle), or JSON over HTTP (AdminClient). Names, inputs and outputs come from the table in ops/.
import { z } from 'zod';
import { type Answer, ControlError } from './op.ts';
import { CONTROL_OPS } from './ops/index.ts';

type Ops = typeof CONTROL_OPS;
export type OpName = keyof Ops;
/** What a caller sends (defaults may be left out). */
type InputOf<N extends OpName> = z.input<Ops[N]['input']>;
/** The input as the server's handler gets it (validated, defaults filled in). */
export type ParsedInputOf<N extends OpName> = z.output<Ops[N]['input']>;
export type OutputOf<N extends OpName> = Ops[N]['output'] extends Answer<infer O> ? O : never;
/** The input as an argument list: none for operations without input. */
export type InputArgs<N extends OpName> = InputOf<N> extends undefined ? [] : [input: InputOf<N>];
/** One operation with its input, e.g. what a new server process is told before it serves. */
export type ControlRequest = { [N in OpName]: { op: N; input: InputOf<N> } }[OpName];

export interface ControlChannel {
  call<N extends OpName>(op: N, ...input: InputArgs<N>): Promise<OutputOf<N>>;
}

export function isOpName(name: string): name is OpName {
  return Object.hasOwn(CONTROL_OPS, name);
}

/** `input` validated by `schema`; a ControlError (400) naming the operation and what is wrong otherwise. */
export function parseWith<S extends z.ZodType>(schema: S, op: OpName, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ControlError(400, `invalid ${op} input:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The operation's input, validated against the protocol's schema. */
export function parseInput<N extends OpName>(op: N, input: unknown): ParsedInputOf<N> {
  return parseWith(CONTROL_OPS[op].input as z.ZodType, op, input) as ParsedInputOf<N>;
}

/** Sends one request (an operation with its input, as the desired state holds them) on a channel. */
export function send(channel: ControlChannel, request: ControlRequest): Promise<unknown> {
  return (channel.call as (op: OpName, input?: unknown) => Promise<unknown>).call(channel, request.op, request.input);
}
