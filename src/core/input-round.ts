// A retried round of a 2026-07-28 multi-round-trip request: a request that carries the client's answers
// (`inputResponses`) or the state the server asked it to echo (`requestState`). The client counts them per attempt
// and the edge's input-round fault picks them, from the same body.

/** Whether a JSON-RPC request body is a retried input_required round. */
export function isInputRound(body: string | undefined): boolean {
  // Cheap first: most bodies never mention either key.
  if (body === undefined || !(body.includes('"inputResponses"') || body.includes('"requestState"'))) return false;
  try {
    const params = (JSON.parse(body) as { params?: Record<string, unknown> }).params;
    return params?.inputResponses !== undefined || params?.requestState !== undefined;
  } catch {
    return false;
  }
}
