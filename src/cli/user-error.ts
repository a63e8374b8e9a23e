// Mistakes a user can fix (bad flags, profiles, targets): printed as one line, exit code 2, no stack trace.
export class UserError extends Error {}

export const EXIT = { ok: 0, thresholdFailed: 1, badInput: 2, interrupted: 130 } as const;
