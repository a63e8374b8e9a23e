import { z } from 'zod';
import { defineTool } from './types.ts';

export const refreshCredentials = defineTool({
  name: 'refresh_credentials',
  title: "Renew the server's credentials",
  description: [
    'Renews the credentials this server uses for its backing services. Use when: a tool failed with',
    'AUTH.TOKEN_EXPIRED; call this once, then retry that tool once. If it fails again with an AUTH error, stop and',
    'ask the user to re-authorise: do not loop. Takes no arguments and has no other effect. Example: {}',
  ].join(' '),
  input: z.strictObject({}),
  output: z.object({ refreshed: z.literal(true) }),
  sideEffecting: false,
  async run(_args, ctx) {
    await ctx.runtime.credentials.refresh();
    return { structured: { refreshed: true }, text: 'Credentials renewed.' };
  },
});
