// host:port strings as Go's net package writes them ("127.0.0.1:8474", "[::1]:8474").
import { isIP } from 'node:net';

export interface HostPort {
  host: string;
  port: number;
}

/** Splits "host:port" or "[v6]:port". Throws on a missing or bad port, like net.SplitHostPort. */
export function splitHostPort(address: string): HostPort {
  const match = /^(?:\[([^\]]*)\]|([^:]*)):(\d+)$/.exec(address) ?? /^(.*):(\d+)$/.exec(address);
  if (!match) throw new Error(`address ${address}: missing port in address`);
  const host = match.length === 4 ? (match[1] ?? match[2]) : match[1];
  const port = Number(match[match.length - 1]);
  if (port > 65535) throw new Error(`address ${address}: invalid port`);
  return { host, port };
}

export function joinHostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go listens on 127.0.0.1 for "localhost"; an empty host means the server's own bind host here. */
export function listenHost(host: string, defaultHost: string): string {
  if (host === '') return defaultHost;
  return host.toLowerCase() === 'localhost' ? '127.0.0.1' : host;
}

/** The one loopback rule (src/core/loopback.ts). */
export { isLoopbackHost } from '../core/loopback.ts';
