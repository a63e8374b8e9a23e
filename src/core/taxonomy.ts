// The error taxonomy from the design: six categories, stable `CATEGORY.REASON` codes, a structured error that
// travels in a tool result's `structuredContent` when `isError` is true.
import { z } from 'zod';

const CATEGORIES = ['PROTO', 'VALIDATION', 'AUTH', 'RESOURCE', 'DEPENDENCY', 'INTERNAL'] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * What an attempt's failure is filed under: the server's category, or the client's own, LINK: the MCP link
 * itself failed (the connection to the MCP endpoint was refused, reset or closed, or the client's request timed
 * out), so no answer of the server's arrived. Who acts: the client reconnects and retries with backoff. Codes:
 * LINK.REFUSED and LINK.UNREACHABLE (no connection was made: the request never left), LINK.RESET and LINK.CLOSED
 * (the connection dropped: the request may have run), LINK.ANSWER_LOST (the stream carrying the answer broke off
 * before it, with nothing to resume from: the request may have run), LINK.TIMEOUT (no answer within the client's
 * timeout: the tool may still run), LINK.NOT_CONNECTED (the transport was down: nothing was sent). Never in a ToolError.
 *
 * EDGE: the MCP endpoint itself (or a gateway or proxy in front of it) answered the HTTP request with a 5xx
 * instead of an MCP answer, so the tool's dependencies are not what failed. Code EDGE.HTTP_<status>; the tool
 * may have run before it (a gateway can answer after the server acted). Never in a ToolError.
 */
/** What an attempt's failure is filed under: the server's category, or the client's LINK or EDGE. */
export type AttemptCategory = Category | 'LINK' | 'EDGE';

const fieldErrorSchema = z.object({ path: z.string(), message: z.string(), expected: z.string().optional() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

const toolErrorSchema = z.object({
  errorCode: z.string().regex(/^[A-Z]+\.[A-Z_]+$/),
  category: z.enum(CATEGORIES),
  message: z.string(),
  retryable: z.boolean(),
  retryAfterMs: z.number().int().nonnegative().optional(),
  fieldErrors: z.array(fieldErrorSchema).optional(),
  requestId: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ToolError = z.infer<typeof toolErrorSchema>;

/** Reads the structured error out of a tool result, or undefined when the result carries none. */
export function toolErrorOf(result: { isError?: boolean; structuredContent?: unknown }): ToolError | undefined {
  if (!result.isError) return undefined;
  const parsed = toolErrorSchema.safeParse(result.structuredContent);
  return parsed.success ? parsed.data : undefined;
}
