// A tool as data: name, descriptions, input and output schemas, and a run function. Tools throw ToolFailure (or
// DependencyFailure) on failure; the dispatcher turns that into a structured isError result.
import { z } from 'zod';
import type { DependencyName } from '../../../mocks/apis/types.ts';
import type { DependencyRequest, DependencyResponse } from '../dependency-client.ts';
import type { ServerRuntime } from '../runtime.ts';

export interface ToolContext {
  requestId: string;
  traceId?: string;
  signal: AbortSignal;
  runtime: ServerRuntime;
  call<T>(dependency: DependencyName, req: DependencyRequest): Promise<DependencyResponse<T>>;
  /** Sends notifications/progress when the caller asked for progress (a progressToken), else does nothing. */
  progress(progress: number, total: number, message: string): Promise<void>;
}

export interface ToolOutput {
  structured: Record<string, unknown>;
  /** A short human/model-readable summary for the text content. */
  text: string;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodObject;
  sideEffecting: boolean;
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
