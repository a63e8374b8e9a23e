// Read-back probes: the effects of a server we did not write, read from its own state after the run. Each probe
// is an MCP call (e.g. read_graph) whose result holds the effect keys, found by a path (core/json-path.ts) or by
// the profile's module; each key found is one effect in the ledger, under the argsKey its op's unique argument
// value gives (opEffectKey), so reconcile attributes it as it attributes the reference server's effects. A probe
// that fails leaves the effects unknown: the source says so (the run's effect metrics are n/a), never 0 effects.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { epochMs } from '../core/clock.ts';
import { parsePath, selectPath } from '../core/json-path.ts';
import { type Effect, foreignEffectKey } from '../core/ledger.ts';
import type { EffectsSpec, ReadBackProbe } from '../profile/effects-schema.ts';
import { importUserModule } from './import-user-module.ts';

/** One tool call on the run's own connection to the server (no trace id: a probe is not an op). */
export type CallTool = (tool: string, args: Record<string, unknown>) => Promise<CallToolResult>;

/** What a probe module's default export does: the result in, one key per effect out. */
type ReadBackMapper = (result: CallToolResult) => unknown[] | Promise<unknown[]>;

/** An op's unique argument value (profile `effects.keys`): what identifies its effect; undefined for other tools. */
export function opEffectValue(effects: EffectsSpec | undefined, tool: string, args: Record<string, unknown>): unknown {
  const path = effects?.keys[tool];
  if (path === undefined) return undefined;
  return selectPath(args, parsePath(path))[0];
}

/** The argsKey of an op's effect (its unique argument value); undefined for other tools. */
export function opEffectKey(
  effects: EffectsSpec | undefined,
  tool: string,
  args: Record<string, unknown>,
): string | undefined {
  const value = opEffectValue(effects, tool, args);
  return value === undefined ? undefined : foreignEffectKey(value);
}

/** The module a probe names, resolved against the profile file; a missing file is a user error up front. */
function probeModulePath(profileFile: string, probe: ReadBackProbe, index: number): string | undefined {
  if (probe.module === undefined) return undefined;
  const file = resolve(dirname(profileFile), probe.module);
  if (!existsSync(file)) throw new ReadBackError(`effects.readBack[${index}].module: ${file} does not exist`);
  return file;
}

export class ReadBackError extends Error {
  override name = 'ReadBackError';
  /** The CLI prints it as one line and exits 2 (a missing module; a failed read is caught, not thrown). */
  readonly userFacing = true;
}

export class ReadBackSource {
  /** Why the effects are unknown, once a read failed. */
  failure: string | undefined;

  constructor(
    private readonly spec: EffectsSpec,
    private readonly profileFile: string,
    private readonly call: CallTool,
  ) {
    for (const [i, probe] of spec.readBack.entries()) probeModulePath(profileFile, probe, i);
  }

  /** Loads every probe's module before the run: one that cannot load is one line naming it and why (exit 2). */
  async load(): Promise<void> {
    for (const [i, probe] of this.spec.readBack.entries()) await probeMapper(this.profileFile, probe, i);
  }

  /** Every probe now: one effect per key found. Empty, with `failure` set, when a probe could not be read. */
  async effects(): Promise<Effect[]> {
    try {
      const effects = await this.read(this.spec.readBack.map((probe, i) => [probe, i] as const));
      this.failure = undefined;
      return effects;
    } catch (error) {
      this.failure = `the read-back failed, effects unknown: ${(error as Error).message.slice(0, 200)}`;
      return [];
    }
  }

  /** The shortest `during.every` of the probes that ask to be read during the run; undefined when none does. */
  get duringEveryMs(): number | undefined {
    const every = this.spec.readBack.flatMap((p) => (p.during ? [p.during.every] : []));
    return every.length > 0 ? Math.min(...every) : undefined;
  }

  /** The probes with `during`, now (mid-run); throws when one cannot be read (the sampler counts it). */
  sampleDuring(): Promise<Effect[]> {
    return this.read(this.spec.readBack.flatMap((probe, i) => (probe.during ? [[probe, i] as const] : [])));
  }

  private async read(probes: readonly (readonly [ReadBackProbe, number])[]): Promise<Effect[]> {
    const effects: Effect[] = [];
    const atMs = epochMs();
    for (const [probe, i] of probes) {
      const result = await this.call(probe.tool, probe.args);
      if (result.isError) throw new ReadBackError(`read-back ${probe.tool} answered an error: ${textOf(result)}`);
      for (const key of await this.keys(probe, i, result)) {
        effects.push({
          seq: effects.length + 1,
          atMs,
          kind: 'read-back',
          argsKey: foreignEffectKey(key),
          details: { probe: probe.tool, key: typeof key === 'string' ? key : JSON.stringify(key) },
        });
      }
    }
    return effects;
  }

  private async keys(probe: ReadBackProbe, index: number, result: CallToolResult): Promise<unknown[]> {
    const mapper = await probeMapper(this.profileFile, probe, index);
    if (mapper !== undefined) {
      const keys = await mapper(result);
      if (!Array.isArray(keys)) throw new ReadBackError(`${probe.module}: expected an array of keys`);
      return keys;
    }
    return selectPath(documentOf(result, probe.tool), parsePath(probe.path!));
  }
}

/** The probe's module's mapper (imported once), or undefined for a probe with a path. */
async function probeMapper(
  profileFile: string,
  probe: ReadBackProbe,
  index: number,
): Promise<ReadBackMapper | undefined> {
  const file = probeModulePath(profileFile, probe, index);
  if (file === undefined) return undefined;
  const at = `effects.readBack[${index}].module: ${file}`;
  let mapper: unknown;
  try {
    mapper = (await importUserModule(file)).default;
  } catch (error) {
    throw new ReadBackError(`${at}: cannot load it (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof mapper !== 'function') throw new ReadBackError(`${at}: expected a default export function`);
  return mapper as ReadBackMapper;
}

/** What a path runs over: the structured result, or else the first text content as JSON. */
function documentOf(result: CallToolResult, tool: string): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = textOf(result);
  try {
    return JSON.parse(text);
  } catch {
    throw new ReadBackError(`read-back ${tool}: no structuredContent and its text is not JSON; use a module`);
  }
}

function textOf(result: CallToolResult): string {
  const block = result.content.find((c) => c.type === 'text');
  return block && 'text' in block ? block.text : '';
}
