// The server process's side of every control operation (the protocol declares them in control/ops/): what each
// one does to the dependency world, the runtime and the HTTP server. Typed against the protocol's table, so an
// operation without a handler, or a handler answering something else, does not compile.
import type { DependencyWorld } from '../../../mocks/world.ts';
import type { OpName, OutputOf, ParsedInputOf } from '../../control/control.ts';
import { parseWith } from '../../control/control.ts';
import { ControlError } from '../../control/op.ts';
import { epochMs } from '../../core/clock.ts';
import { behaviourSetSchema } from '../behaviour.ts';
import type { McpHttpServer } from '../http-server.ts';
import type { ServerRuntime } from '../runtime.ts';

/** What a handler reaches: the server process's dependency world, runtime and (not over stdio) HTTP server. */
export interface ControlHost {
  world: DependencyWorld;
  runtime: ServerRuntime;
  /** The Streamable HTTP server; absent over stdio, where behaviour faults are not offered. */
  http?: McpHttpServer;
}

type Handlers = {
  [N in OpName]: (host: ControlHost, input: ParsedInputOf<N>) => OutputOf<N> | Promise<OutputOf<N>>;
};

function httpOf(host: ControlHost): McpHttpServer {
  if (!host.http) throw new ControlError(404, 'server behaviour faults need the Streamable HTTP server (not stdio)');
  return host.http;
}

export const HANDLERS: Handlers = {
  setDependencyFaults: ({ world }, faults) => {
    world.faults.set(faults);
    return { appliedAtMs: epochMs() };
  },
  setBehaviour: (host, input) => {
    // Each kind's parameters are the server's behaviours' to check (the protocol checked the shape).
    const specs = parseWith(behaviourSetSchema, 'setBehaviour', input);
    httpOf(host).setBehaviour(specs);
    return { appliedAtMs: epochMs() };
  },
  behaviourStats: (host) => httpOf(host).behaviourStats(),
  faultHits: ({ world }) => world.hits.all(),
  quiescence: ({ world, runtime }) => runtime.handlers.quiescence(world.ledger.lastAtMs),
  loopLag: ({ runtime }) => runtime.loopLag() ?? null,
  ledger: ({ world }) => world.ledger.list(),
  decisions: ({ world }) => world.decisions.slice(),
  reset: ({ world, runtime, http }) => {
    world.reset();
    runtime.reset();
    http?.setBehaviour([]);
  },
  sync: () => undefined,
};
