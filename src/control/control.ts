// The control operations as one channel, whatever carries them: in-process (LocalControl), the IPC channel
// (ServerHandle), or JSON over HTTP (AdminClient). Names, inputs and outputs come from the table in ops/.
import { z } from 'zod';
import { ControlError, type ControlHost, type ControlOp } from './op.ts';
import { CONTROL_OPS } from './ops/index.ts';

type Ops = typeof CONTROL_OPS;
export type OpName = keyof Ops;
/** What a caller sends (defaults may be left out). */
export type InputOf<N extends OpName> = z.input<Ops[N]['input']>;
export type OutputOf<N extends OpName> = Awaited<ReturnType<Ops[N]['handle']>>;
/** The input as an argument list: none for operations without input. */
export type InputArgs<N extends OpName> = InputOf<N> extends undefined ? [] : [input: InputOf<N>];
/** One operation with its input, e.g. what a new server process is told before it serves. */
export type ControlRequest = { [N in OpName]: { op: N; input: InputOf<N> } }[OpName];

export interface ControlChannel {
  call<N extends OpName>(op: N, ...input: InputArgs<N>): Promise<OutputOf<N>>;
}

function isOpName(name: string): name is OpName {
  return Object.hasOwn(CONTROL_OPS, name);
}

/** The operation's input, validated; a ControlError (400) naming what is wrong otherwise. */
export function parseInput<N extends OpName>(op: N, input: unknown): InputOf<N> {
  const parsed = (CONTROL_OPS[op].input as z.ZodType).safeParse(input);
  if (!parsed.success) throw new ControlError(400, `invalid ${op} input:\n${z.prettifyError(parsed.error)}`);
  return parsed.data as InputOf<N>;
}

/** Runs one operation in this (the server's) process. */
export async function dispatch(host: ControlHost, op: string, input: unknown): Promise<unknown> {
  if (!isOpName(op)) throw new ControlError(404, `no control operation ${op}`);
  const def = CONTROL_OPS[op] as ControlOp;
  return def.handle(host, parseInput(op, input));
}

/** Control of a server running in this process. */
export class LocalControl implements ControlChannel {
  constructor(private readonly host: ControlHost) {}

  async call<N extends OpName>(op: N, ...input: InputArgs<N>): Promise<OutputOf<N>> {
    return (await dispatch(this.host, op, input[0])) as OutputOf<N>;
  }
}

/** Sends one request (an operation with its input, as the desired state holds them) on a channel. */
export function send(channel: ControlChannel, request: ControlRequest): Promise<unknown> {
  return (channel.call as (op: OpName, input?: unknown) => Promise<unknown>).call(channel, request.op, request.input);
}
