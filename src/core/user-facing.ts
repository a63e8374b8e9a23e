// A mistake in what the user gave (a profile, a flag, a target, a hook, a client module) is theirs to fix: printed
// as one line with exit code 2 and no stack. Every error meant so carries `userFacing = true`, wherever it is thrown.

/** Whether `error` is a user's mistake to be said in one line (exit 2), not a fault of Faultline's own. */
export function isUserFacing(error: unknown): error is Error {
  return error instanceof Error && (error as { userFacing?: boolean }).userFacing === true;
}
