// Which protocol front end the reference server serves (chosen at start): `sdk1` is SDK 1.32's stateful
// Streamable HTTP (2025-11-25), `sdk2` SDK 2.4's createMcpHandler serving only 2026-07-28 (legacy: 'reject'),
// `dual` both: 2026-07-28 requests to SDK 2.4's handler, 2025-era requests (initialize, sessions) to SDK 1.32.
export type FrontEnd = 'sdk1' | 'sdk2' | 'dual';

/** `faultline server --protocol`: the era a user names, and the front end that serves it. */
export const SERVER_PROTOCOLS = { legacy: 'sdk1', modern: 'sdk2', both: 'dual' } as const satisfies Record<
  string,
  FrontEnd
>;
export type ServerProtocol = keyof typeof SERVER_PROTOCOLS;
