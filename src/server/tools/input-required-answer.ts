// Its own file: errors.ts throws it and the tools return it, so it must not sit with the tools' types (a circle).
/**
 * A 2026-07-28 input_required answer (multi-round-trip requests): embedded requests for the client to fulfil and
 * an opaque state it echoes back; the SDK 2.4 front end passes it to the wire as is.
 */
export interface InputRequiredAnswer {
  resultType: 'input_required';
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState?: string;
}
