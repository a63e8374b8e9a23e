// How both front ends list the reference tools and introduce the server (the same for SDK 1.32 and SDK 2.4).
import type { ToolDef } from './tools/types.ts';

export const SERVER_INFO = { name: 'faultline-reference', version: '0.1.0' };

export const SERVER_INSTRUCTIONS =
  'Reference system under test for Faultline. Side-effecting tools take an idempotency_key: reuse it on retries. ' +
  'Errors are isError results with a structured ToolError (errorCode, category, retryable, retryAfterMs).';

/** registerTool's config for one tool. */
export function toolListing(tool: ToolDef) {
  return {
    title: tool.title,
    description: tool.description,
    inputSchema: tool.input,
    // Advertised leniently (fields optional, extra allowed): SDK clients validate structuredContent against
    // outputSchema even on isError results, which would reject our structured ToolErrors.
    outputSchema: tool.output.partial().loose(),
    annotations: { title: tool.title, ...toolHints(tool), openWorldHint: true },
  };
}

/** What a tool's annotations say a call may do: idempotent by its key, which every side-effecting tool takes. */
export function toolHints(tool: Pick<ToolDef, 'sideEffecting'>) {
  return { readOnlyHint: !tool.sideEffecting, destructiveHint: false, idempotentHint: true };
}
