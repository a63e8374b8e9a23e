// A tool as data: name, descriptions, input and output schemas, its traits, and a run function. Tools throw
// ToolFailure (or DependencyFailure) on failure; the dispatcher turns that into a structured isError result.
import { z } from 'zod';
import type { DependencyName } from '../../core/dependency-contract.ts';
import type { DependencyRequest, DependencyResponse } from '../deps/dependency-client.ts';
import type { ServerRuntime } from '../runtime.ts';
import type { TaskHandle } from '../tasks/task-store.ts';

export interface ToolContext {
  requestId: string;
  traceId?: string;
  /** The client's attempt number (`_meta['faultline/attempt']`), forwarded to the dependencies. */
  attempt?: number;
  signal: AbortSignal;
  runtime: ServerRuntime;
  call<T>(dependency: DependencyName, req: DependencyRequest): Promise<DependencyResponse<T>>;
  /** Sends notifications/progress when the caller asked for progress (a progressToken), else does nothing. */
  progress(progress: number, total: number, message: string): Promise<void>;
  /** A retried multi-round-trip request's answers (2026-07-28 wire only; absent on a first round or 2025-11-25). */
  input?: ToolInput;
  /** The task the call runs as (a task-only tool on the 2026-07-28 wire): claim it before the effect. */
  task?: TaskHandle;
}

/** What a retried round carries: the client's answers to the embedded requests, and the state it echoes back. */
export interface ToolInput {
  /** The accepted content of the answer to the embedded request `key`, if it was accepted. */
  accepted(key: string): Record<string, unknown> | undefined;
  state?: string;
}

interface ToolOutput {
  structured: Record<string, unknown>;
  /** A short human/model-readable summary for the text content. */
  text: string;
}

/** What a client may know about a tool beyond its schema (the workload's catalog is derived from these). */
export interface ToolTraits {
  /** It changes state outside the server: its timeouts are uncertain, its retries need an idempotency key. */
  sideEffecting: boolean;
  /** The input field that carries the idempotency key. */
  idempotencyArg?: string;
  /** How to ask whether an uncertain effect happened: the read-only tool and its key argument. */
  statusLookup?: { tool: string; keyArg: string };
  /** Once cancelled it never commits: a timed-out (so cancelled) attempt took no effect. */
  honoursCancel?: boolean;
  /** It runs as a task (2026-07-28 Tasks extension): tools/call answers a task to poll with tasks/get. */
  runsAsTask?: boolean;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject> extends ToolTraits {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodObject;
  /**
   * For a side-effecting tool: the distinguishing arguments its dependency call carries (and the ledger hashes
   * into argsKey), computed from the tool's own arguments. The tool builds its dependency request from it and
   * the workload hashes the op's planned arguments with it, so an effect without a trace id still finds its op.
   */
  effectArgs?(args: z.infer<I>): Record<string, unknown>;
  run(args: z.infer<I>, ctx: ToolContext): Promise<ToolOutput>;
}

export function defineTool<I extends z.ZodObject>(def: ToolDef<I>): ToolDef<I> {
  return def;
}

export const idempotencyKey = z
  .string()
  .min(8)
  .max(255)
  .regex(/^[A-Za-z0-9._:-]+$/)
  .describe(
    "A key you generate once per intended operation, 8-255 chars of [A-Za-z0-9._:-], e.g. a UUID '4f1c2a9e-7b3d-4e8a-9c1f-2d5e6a7b8c9d'. " +
      'Reuse the SAME key when retrying the same operation (the server then never performs it twice); use a NEW key for a new operation.',
  );
