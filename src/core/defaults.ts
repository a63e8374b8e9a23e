// Defaults that more than one stage needs. One copy each, so the profile schema, the measurement and the reference
// server cannot drift apart.

/**
 * The reference server's own timeout on one dependency call. It sits under the client's default attempt timeout
 * (2000 ms), as timeout layering asks (client > server > dependency), so a server started without a profile
 * (`faultline server`, stdio-main) layers like a profile's default target.
 */
export const DEFAULT_DEPENDENCY_TIMEOUT_MS = 1000;

/**
 * How long the reference server honours a request state it handed out with input_required (its signature carries
 * when it was issued): a user who takes longer to confirm starts the call again. Long enough for any human.
 */
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;

/**
 * The pre-fault steady state and the recovery window: sliding window, ops it needs, success level to reach, and
 * the floor below which the system was not healthy before the fault (recovery is then n/a, not measured).
 */
export const STEADY_STATE_DEFAULTS = { windowMs: 1000, minOps: 5, level: 0.99, floor: 0.8 } as const;
