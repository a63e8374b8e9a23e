// The simulated user behind the SDK 2.4 client: a 2026-07-28 server asks for input inside a call (input_required,
// fulfilled by the client's elicitation handler, then retried with the answers). The user accepts every form and
// answers each boolean field yes, as a user who asked for the action confirms it.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

export const ELICITATION_CAPABILITY = { elicitation: { form: {} } };

export function confirmingUser(request: ElicitRequest): ElicitResult {
  const schema = 'requestedSchema' in request.params ? request.params.requestedSchema : undefined;
  const content = Object.fromEntries(
    Object.entries(schema?.properties ?? {})
      .filter(([, field]) => field.type === 'boolean')
      .map(([name]) => [name, true]),
  );
  return { action: 'accept', content };
}
