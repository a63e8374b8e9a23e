// Which protocol front end the reference server serves (chosen at start): `sdk1` is SDK 1.32's stateful
// Streamable HTTP (2025-11-25), `sdk2` SDK 2.4's createMcpHandler serving only 2026-07-28 (legacy: 'reject'),
// `dual` both: 2026-07-28 requests to SDK 2.4's handler, 2025-era requests (initialize, sessions) to SDK 1.32.
export type FrontEnd = 'sdk1' | 'sdk2' | 'dual';
