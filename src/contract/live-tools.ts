// The profile's workload tools on a started environment, as the contract's checks use them (ToolUnderTest): traits
// from tool-traits.ts (profile, reference, annotations) with --key-arg over them, the effects the ledger or the
// profile's read-back counts, and the real edge fault drop-after-commit on the client's fetch.

import { withOwnAnswerLost } from '../client/answer-lost.ts';
import { RandomStream } from '../core/random.ts';
import { findFaultKind } from '../faults/registry.ts';
import { generate } from '../profile/generators.ts';
import type { Profile } from '../profile/schema.ts';
import type { Environment } from '../run/environment.ts';
import type { ListedTool } from '../run/preflight.ts';
import { toolTraits } from '../run/tool-traits.ts';
import type { CallOutcome, DropWindow, ToolUnderTest } from './tool-under-test.ts';

/** Long enough for a busy machine, short enough that a call whose answer was lost gives up in time. */
const CALL_TIMEOUT_MS = 10_000;

export function liveTools(
  profile: Profile,
  env: Environment,
  listed: ReadonlyMap<string, ListedTool>,
  keyArgs: ReadonlyMap<string, string>,
  seed: number,
): ToolUnderTest[] {
  const traits = toolTraits(profile, listed);
  const tag = new RandomStream(seed, 'contract-keys').int('tag', 0, 0xffffff).toString(16);
  let keys = 0;
  let drops = 0;
  const tools = [...new Set(profile.workload.mix.map((m) => m.tool))];
  return tools.map((tool) => {
    const item = profile.workload.mix.find((m) => m.tool === tool)!;
    const keyArg = keyArgs.get(tool) ?? traits(tool).idempotencyArg;
    return {
      tool,
      hints: listed.get(tool)?.annotations,
      sideEffecting: traits(tool).sideEffecting,
      keyArg,
      noKeyReason: 'no idempotency key argument (mix idempotencyKeyArg, --key-arg TOOL=ARG or a reference trait)',
      args: (variant) =>
        generate({ object: item.args }, new RandomStream(seed, `contract-${tool}-${variant}`), variant) as Record<
          string,
          unknown
        >,
      freshKey: () => `contract-${tag}-${++keys}`,
      call: (args) => callTool(env, tool, args),
      effects: () => countEffects(env),
      dropAnswers: () => dropAnswers(env, seed, `contract-drop-${++drops}`),
    };
  });
}

async function callTool(env: Environment, name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  try {
    const { connection } = await env.session.get();
    // A call whose answer is lost with its stream ends then (answer-lost.ts), not at CALL_TIMEOUT_MS.
    const result = await withOwnAnswerLost(connection.attempts, (lost) =>
      connection.client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, ...lost }),
    );
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join(' ');
    const body = result.structuredContent === undefined ? text : JSON.stringify(result.structuredContent);
    return { kind: 'result', isError: result.isError === true, body };
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
}

async function countEffects(env: Environment): Promise<number | string> {
  const effects = await env.server.ledger();
  if (!env.server.observesEffects)
    return env.effectsUnknown?.() ?? 'no effect source: the target has no ledger and the profile no effects: read-back';
  return effects.length;
}

async function dropAnswers(env: Environment, seed: number, id: string): Promise<DropWindow | undefined> {
  // Only a client that reaches its server over HTTP has the fetch the edge rule sits on.
  if (env.mcpUrl.startsWith('stdio:')) return undefined;
  const kind = findFaultKind('edge', 'drop-after-commit')!;
  const applied = await kind.apply(kind.params.parse({}), { env, id, random: new RandomStream(seed, id) });
  return {
    hits: async () => (await applied.hits()) ?? 0,
    remove: async () => {
      await applied.remove();
    },
  };
}
