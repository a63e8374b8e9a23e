// The side channel between Faultline and the msw preload it puts into a foreign Node server (profile
// `effects.intercept`): one loopback TCP connection per server process, JSON lines both ways. The preload says
// hello, gets the desired dependency faults (now, and again whenever a fault window opens or closes, answering
// `applied`), and reports every intercepted request the dependency accepted (an effect), waiting for the ack so the
// effect is in the ledger before the server can answer the tool call.

/** The environment variable carrying the preload's configuration (JSON, InterceptConfig). */
export const INTERCEPT_ENV = 'FAULTLINE_INTERCEPT';

export interface InterceptedDependency {
  /** URL pattern without query: `*` stands for any characters but `/`. */
  url: string;
  method?: string;
}

export interface InterceptConfig {
  /** The collector, `host:port` on loopback. */
  collector: { host: string; port: number };
  dependencies: InterceptedDependency[];
  seed: number;
}

/** What one intercepted request the dependency accepted looked like (the op key is looked for in url and body). */
export interface InterceptedRequest {
  method: string;
  url: string;
  status: number;
  /** The request body, cut at BODY_LIMIT characters. */
  body: string;
}

export const BODY_LIMIT = 65_536;

export type PreloadMessage =
  | { type: 'hello'; pid: number }
  | { type: 'applied'; version: number }
  | { type: 'effect'; n: number; request: InterceptedRequest }
  | { type: 'hits'; hits: Record<string, number> };

export type CollectorMessage = { type: 'faults'; version: number; faults: unknown[] } | { type: 'ack'; n: number };

/** Whether a request (method, URL) belongs to one of the intercepted dependencies. */
export function interceptedBy(
  dependencies: readonly InterceptedDependency[],
  method: string,
  url: string,
): InterceptedDependency | undefined {
  const u = new URL(url);
  const bare = `${u.protocol}//${u.host}${u.pathname}`;
  return dependencies.find((d) => (d.method === undefined || d.method === method) && patternOf(d.url).test(bare));
}

function patternOf(url: string): RegExp {
  const escaped = url.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]*')}$`);
}
