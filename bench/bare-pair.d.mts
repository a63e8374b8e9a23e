// The types of bench/bare-pair.mjs's export, for the TypeScript benches that start its echo server.
export function startEchoServer(): Promise<{ url: string; stop: () => Promise<void> }>;
