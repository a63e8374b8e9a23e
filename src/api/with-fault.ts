// withFault: one fault kind from the registry applied for the length of a block of code.

import { formatPath } from '../core/profile-error.ts';
import { RandomStream } from '../core/random.ts';
import type { FaultEnvironment } from '../faults/context.ts';
import { FAULTS, findFaultKind } from '../faults/registry.ts';

/** A fault as a profile's `faults:` entry names it, without the window: seam, kind and the kind's parameters. */
export interface FaultSpec {
  seam: string;
  kind: string;
  /** The window's id in decisions and toxic names (default `with-<seam>-<kind>`). */
  id?: string;
  [param: string]: unknown;
}

export interface WithFaultOptions {
  /** Seed of the fault's draws (probability, jitter); default the environment's seed, else 1. */
  seed?: number;
}

/**
 * Applies a fault on the wire (or in the server process) through the same fault registry profiles use, runs
 * `fn`, and removes the fault when `fn` settles, whether it resolved or threw.
 *
 * @param env - the running system: {@link startEnvironment}'s result (or any FaultEnvironment).
 * @param fault - seam, kind and the kind's parameters, as in a profile's `faults:` entry without start/stop.
 * @throws Error - an unknown seam/kind or bad parameters, before anything is applied.
 *
 * @example
 * ```ts
 * await withFault(env, { seam: 'dependency', kind: 'status', dependency: 'payments', status: 503 }, async () => {
 *   expect((await client.call('search_documents', { query: 'refund' })).outcome).toBe('ok');
 * });
 * ```
 */
export async function withFault<T>(
  env: FaultEnvironment & { seed?: number },
  fault: FaultSpec,
  fn: () => Promise<T> | T,
  options: WithFaultOptions = {},
): Promise<T> {
  const { seam, kind: kindName, id = `with-${fault.seam}-${fault.kind}`, ...raw } = fault;
  const kind = findFaultKind(seam, kindName);
  if (!kind) {
    const known = FAULTS.map((f) => `${f.seam}/${f.kind}`).join(', ');
    throw new Error(`withFault: unknown fault ${seam}/${kindName} (known: ${known})`);
  }
  const parsed = kind.params.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`withFault: ${seam}/${kindName}: ${formatPath(issue.path)}: ${issue.message}`);
  }
  const random = new RandomStream(options.seed ?? env.seed ?? 1, `fault/${id}`);
  const applied = await kind.apply(parsed.data, { env, id, random });
  try {
    return await fn();
  } finally {
    await applied.remove();
  }
}
