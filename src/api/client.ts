// createClient: an MCP client that calls tools through one of Faultline's client policies (retries, deadlines,
// idempotency keys, status lookups), for tests that drive the workload themselves.
import { randomBytes } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { policyByName } from '../client/policies/index.ts';
import type { ClientOpFields, LogicalCall } from '../client/policy.ts';
import { Session } from '../client/session.ts';
import type { AttemptRecord } from '../core/history.ts';
import type { PolicyName } from '../core/policy-names.ts';
import { RandomStream } from '../core/random.ts';
import { clientSchema } from '../profile/schema.ts';
import { declaredTraitsOf } from '../server/tools/catalog.ts';
import type { ProfileInput } from './define-profile.ts';

/** What one logical call came to: its op id and the fields an op record carries (outcome, attempts, lookups…). */
export type OpResult = ClientOpFields & { opId: string };

/** Where the client connects: an MCP endpoint URL, a transport per connect (stdio), or a session already open. */
export type ClientTarget = { url: string } | { transport: () => Transport; name?: string } | { session: Session };

export interface ClientOptions {
  /** `resilient` (default), or the negative controls `naive` and `none`. */
  policy?: PolicyName;
  /** Timeouts, attempts and backoff, as in a profile's `client:` section (same defaults). */
  client?: Omit<NonNullable<ProfileInput['client']>, 'policy'>;
  /** Seed of the backoff jitter. */
  seed?: number;
  /** Op ids are `<name>-<n>` (default: random hex), and so are the idempotency keys the policy derives from them. */
  name?: string;
}

export interface FaultlineClient {
  readonly session: Session;
  /** Every attempt made so far, in order (what a report's attempt metrics are computed from). */
  readonly attempts: AttemptRecord[];
  /**
   * One logical call: the policy's attempts until success, a non-retryable failure or the deadline. Tools of the
   * reference server carry their traits (side effects, idempotency key, status lookup); any other tool is
   * treated as free of side effects unless `traits` says otherwise.
   */
  call(tool: string, args?: Record<string, unknown>, traits?: Partial<LogicalCall>): Promise<OpResult>;
  /** Closes the session (a session passed in is closed too). */
  close(): Promise<void>;
}

/**
 * Creates an MCP client whose calls go through a client policy.
 *
 * @example
 * ```ts
 * const client = createClient({ url: server.url }, { policy: 'resilient', client: { maxAttempts: 8 } });
 * const result = await client.call('create_payment', { customer_id: 'c1', amount_cents: 500, currency: 'EUR' });
 * console.log(result.outcome, result.attempts);
 * await client.close();
 * ```
 */
export function createClient(target: ClientTarget, options: ClientOptions = {}): FaultlineClient {
  const settings = clientSchema.parse(options.client ?? {});
  const policy = policyByName(options.policy ?? 'resilient');
  const session =
    'session' in target
      ? target.session
      : 'url' in target
        ? new Session({ url: target.url })
        : new Session({ url: `stdio:${target.name ?? 'server'}`, transport: target.transport });
  const name = options.name ?? randomBytes(4).toString('hex');
  const random = new RandomStream(options.seed ?? 1, `client/${name}`);
  const attempts: AttemptRecord[] = [];
  // Traits a caller gives for a tool of its own (the reference tools carry theirs).
  const extraTraits = new Map<string, Partial<LogicalCall>>();
  const runner = policy.forRun({
    session,
    client: settings,
    serverRefreshesCredentials: true,
    traitsOf: (tool) => ({ ...declaredTraitsOf(tool), ...extraTraits.get(tool) }),
    recordAttempt: (attempt) => attempts.push(attempt),
    recordBreakerEvent: () => {},
  });
  let ops = 0;
  return {
    session,
    attempts,
    async call(tool, args = {}, traits = {}) {
      const index = ++ops;
      const opId = `${name}-${index}`;
      if (Object.keys(traits).length > 0) extraTraits.set(tool, traits);
      const fields = await runner({ index, opId, tool, args }, random.child(opId));
      return { opId, ...fields };
    },
    close: () => session.close(),
  };
}
