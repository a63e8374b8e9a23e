// DNS-rebinding protection for the reference server's HTTP front end. A web page can make a browser send requests
// to 127.0.0.1 under its own name (its DNS answer changes to 127.0.0.1 after the page loaded), and then read the
// answers as same-origin. Such a request carries the page's name in `Host` (and usually `Origin`), so the server
// answers only requests whose Host names loopback, on any port (a proxy in front changes the port), plus the
// names the operator allowed. An Origin, when present, must pass the same rule; none (any non-browser client) is
// fine.
import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '../core/loopback.ts';

/** `name`, `name:port` or `[v6]:port`, nothing else (no user info, path or spaces): group 1 is the name. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/i;
/** An Origin: a scheme, `://` and a HOST. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(.+)$/i;

/** Why the request is refused, or undefined when its Host and Origin are acceptable. */
export function hostRefusal(req: IncomingMessage, allowedHosts: readonly string[] = []): string | undefined {
  const acceptable = (hostPort: string | undefined) => {
    const name = hostPort === undefined ? undefined : HOST.exec(hostPort)?.[1].toLowerCase();
    return name !== undefined && (isLoopbackHost(name) || allowedHosts.some((h) => h.toLowerCase() === name));
  };
  const { host, origin } = req.headers;
  if (!host) return 'the request has no Host header';
  if (!acceptable(host)) return `Host ${quote(host)} is not a loopback name`;
  if (origin !== undefined && !acceptable(ORIGIN.exec(origin)?.[1])) {
    return `Origin ${quote(origin)} is not a loopback origin`;
  }
  return undefined;
}

/** At most 60 characters of a header value, for an error message. */
function quote(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}
