// What the workload knows about the reference server's tools: which have side effects, which argument carries
// the idempotency key, and how to look up an uncertain effect.
import type { LogicalCall } from '../../client/policy.ts';

export type ToolTraits = Pick<LogicalCall, 'sideEffecting' | 'idempotencyArg' | 'statusLookup' | 'honoursCancel'>;

export const REFERENCE_TOOLS: Record<string, ToolTraits> = {
  create_payment: {
    sideEffecting: true,
    idempotencyArg: 'idempotency_key',
    statusLookup: { tool: 'get_payment_status', keyArg: 'idempotency_key' },
  },
  get_payment_status: { sideEffecting: false },
  send_notification: { sideEffecting: true, idempotencyArg: 'idempotency_key' },
  search_documents: { sideEffecting: false },
  generate_report: { sideEffecting: true, idempotencyArg: 'idempotency_key', honoursCancel: true },
};

/** Traits of a tool the workload names; unknown tools (model mistakes) are treated as reads. */
export function traitsOf(tool: string): ToolTraits {
  return REFERENCE_TOOLS[tool] ?? { sideEffecting: false };
}
