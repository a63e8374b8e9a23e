// Bring your own client: a module whose factory builds the user's MCP client (their own retry and backoff around the
// SDK Client) on transports the harness hands it. The harness calls it once per op, as an agent would, and judges
// what it did from the wire: every tools/call it sends is an attempt (observed-transport.ts), and the op is what the
// call returned. So every metric reads the same as for the built-in policies.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { epochMs } from '../core/clock.ts';
import { sleep } from '../core/sleep.ts';
import type { ToolCallResult } from './attempt-outcome.ts';
import type { AttemptRegistry } from './attempt-registry.ts';
import { classifyError, classifyResult } from './classify.ts';
import { type ObservedOp, ObservedTransport, recordNotGotOut, runInOp } from './observed-transport.ts';
import { OpTally } from './op-tally.ts';
import { oneKey } from './policies/compose.ts';
import {
  type ClientPolicy,
  type ClientSettings,
  type LogicalCall,
  type OpRunner,
  type RunSetup,
  wireId,
} from './policy.ts';

/** What the user's factory gets. */
export interface ClientModuleContext {
  /**
   * A new transport to the server under test on every call (over stdio: a new server process). Connect an SDK
   * Client on it; to reconnect after a lost session or a crash, make another.
   */
  newTransport(): Transport;
  /** The profile's client settings (timeouts, attempts, backoff): the client may follow them or not. */
  settings: ClientSettings;
}

/** What the user's factory builds: one tool call per op, however it likes (retries included). */
export interface UserClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<ToolCallResult>;
  close?(): Promise<void>;
}

export type ClientFactory = (context: ClientModuleContext) => UserClient | Promise<UserClient>;

/** Past the deadline plus this, the harness stops waiting for a call (the op fails), so the run stays bounded. */
const GIVE_UP_GRACE_MS = 2000;

/** A client policy that is the user's module: forRun builds their client (once per run); close() closes it. */
export interface ModulePolicy extends Pick<ClientPolicy, 'forRun'> {
  close(): Promise<void>;
}

export function modulePolicy(
  factory: ClientFactory,
  /** A new transport to the server, its HTTP requests found in `attempts`. */
  newTransport: (attempts: AttemptRegistry) => Transport,
): ModulePolicy {
  let built: Promise<UserClient> | undefined;
  return {
    forRun: (run) => {
      const observed = () => new ObservedTransport(newTransport, run.recordAttempt);
      built = Promise.resolve(factory({ newTransport: observed, settings: run.client })).then((client) => {
        if (typeof client?.callTool !== 'function')
          throw new ClientModuleError(
            'the factory returned no client: expected an object with callTool({ name, arguments })',
          );
        return client;
      });
      return opRunner(built, run);
    },
    close: async () => {
      const client = await built?.catch(() => undefined);
      await client?.close?.().catch(() => {});
    },
  };
}

function opRunner(built: Promise<UserClient>, run: RunSetup): OpRunner {
  const limitMs = run.client.deadlineMs + GIVE_UP_GRACE_MS;
  const runner: OpRunner = async (planned) => {
    const traceId = run.traceIdOf?.(planned.opId);
    const call: LogicalCall = {
      opId: planned.opId,
      ...(traceId !== undefined && { traceId }),
      tool: planned.tool,
      args: planned.args,
      ...run.traitsOf(planned.tool),
    };
    // The op's arguments carry its one idempotency key, as a model's call would: retrying them repeats it.
    const key = oneKey(call);
    const args = key && call.idempotencyArg ? { ...call.args, [call.idempotencyArg]: key } : call.args;
    const op: ObservedOp = {
      opId: planned.opId,
      tool: planned.tool,
      traceId: wireId(call),
      tally: new OpTally(call),
      sent: 0,
      open: new Set(),
    };
    const startMs = epochMs();
    let ok = false;
    let failure: unknown;
    const client = await built;
    try {
      const result = await runInOp(op, () =>
        Promise.race([
          client.callTool({ name: planned.tool, arguments: args }),
          sleep(limitMs, undefined, { unref: true }).then(() => {
            throw new McpError(-32001, `the client did not return within ${limitMs} ms`);
          }),
        ]),
      );
      ok = classifyResult(result).ok;
    } catch (error) {
      failure = error;
    }
    // Attempts the client walked away from without cancelling: ended now, uncertain.
    for (const end of [...op.open]) end(classifyError(new McpError(-32001, 'the client stopped waiting')));
    // It failed with no attempt seen (the client refused the call itself, say): one attempt that never got out.
    if (op.sent === 0 && !ok) recordNotGotOut(op, run.recordAttempt, startMs, failure);
    return op.tally.outcome(ok).fields;
  };
  return runner;
}

/** A client module that cannot be used: one line, exit 2. */
export class ClientModuleError extends Error {
  readonly userFacing = true;
  constructor(message: string) {
    super(message);
    this.name = 'ClientModuleError';
  }
}
