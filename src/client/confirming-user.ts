// The simulated user behind the SDK 2.4 client: a 2026-07-28 server asks for input inside a call (input_required,
// fulfilled by the client's elicitation handler, then retried with the answers). The user accepts every form and
// answers each boolean field yes, as a user who asked for the action confirms it.

export const ELICITATION_CAPABILITY = { elicitation: { form: {} } };

/** An elicitation/create request as far as the user reads it: the form's fields. */
interface FormRequest {
  params: object & { requestedSchema?: { properties?: Record<string, { type?: string }> } };
}

export function confirmingUser(request: FormRequest): { action: 'accept'; content: Record<string, boolean> } {
  // A URL-mode elicitation has no form: accepted with no content.
  const schema = 'requestedSchema' in request.params ? request.params.requestedSchema : undefined;
  const fields = Object.entries(schema?.properties ?? {});
  return {
    action: 'accept',
    content: Object.fromEntries(fields.filter(([, f]) => f.type === 'boolean').map(([name]) => [name, true])),
  };
}
