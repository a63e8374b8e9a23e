// Runs control operations in this (the server's) process: the child's IPC loop and the stdio server dispatch
// requests by name, and LocalControl is the channel of a server running in the caller's own process.
import type { ControlChannel, InputArgs, OpName, OutputOf } from '../../control/control.ts';
import { isOpName, parseInput } from '../../control/control.ts';
import { ControlError } from '../../control/op.ts';
import { type ControlHost, HANDLERS } from './handlers.ts';

/** Runs one operation by name: its input checked by the protocol, then its handler. */
export async function dispatch(host: ControlHost, op: string, input: unknown): Promise<unknown> {
  if (!isOpName(op)) throw new ControlError(404, `no control operation ${op}`);
  const handle = HANDLERS[op] as (host: ControlHost, input: unknown) => unknown;
  return handle(host, parseInput(op, input));
}

/** Control of a server running in this process. */
export class LocalControl implements ControlChannel {
  constructor(private readonly host: ControlHost) {}

  async call<N extends OpName>(op: N, ...input: InputArgs<N>): Promise<OutputOf<N>> {
    return (await dispatch(this.host, op, input[0])) as OutputOf<N>;
  }
}
