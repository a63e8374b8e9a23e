// The one request-body reader of Faultline's HTTP servers (the embedded Toxiproxy API, the admin endpoint): the
// body is read in full, bounded in size and time, so a stalled, trickling or huge body holds up only its own
// request (the Toxiproxy API reads it before the request takes its turn, change-order.ts). Each server answers a
// refused body in its own error format. Real Toxiproxy sets no size limit and gives headers and body 15 s together
// (Go's http.Server ReadTimeout); these bounds are ours.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BodyLimits {
  /** Largest body accepted; a larger one is answered 413. */
  maxBytes: number;
  /** Time for the whole body to arrive once the headers are in; a slower one is answered 408. */
  timeoutMs: number;
}

/** 1 MiB holds a populate of several thousand proxies; 10 s is ample for any body on loopback. */
export const DEFAULT_BODY_LIMITS: BodyLimits = { maxBytes: 1024 * 1024, timeoutMs: 10_000 };

/** Writes the server's answer to a body it refuses: 413 (too large) or 408 (too slow). */
export type RefuseBody = (res: ServerResponse, status: 408 | 413, message: string) => void;

/** After a 413 the rest of the body is read and dropped, keeping the connection, if it ends within this long;
 * otherwise the connection is closed. Closing at once would make the kernel reset the connection on the unread
 * bytes, and the client could lose the 413 (Go's server waits likewise before closing). */
const DISCARD_GRACE_MS = 1000;

/** The body as UTF-8 text, or undefined when it was refused here (413, 408, through `refuse`) or the client left. */
export function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limits: BodyLimits,
  refuse: RefuseBody,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (text: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(text);
    };
    const tooLarge = () => {
      settle(undefined);
      parts.length = 0;
      refuse(res, 413, `request body too large: more than ${limits.maxBytes} bytes`);
      if (req.complete) return;
      const grace = setTimeout(() => req.socket.destroy(), DISCARD_GRACE_MS);
      req.once('end', () => clearTimeout(grace));
    };
    const timer = setTimeout(() => {
      settle(undefined);
      res.shouldKeepAlive = false;
      refuse(res, 408, `request body not received within ${limits.timeoutMs} ms`);
    }, limits.timeoutMs);
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limits.maxBytes) tooLarge();
      else parts.push(chunk);
    });
    req.once('end', () => settle(Buffer.concat(parts, size).toString('utf8')));
    req.once('close', () => settle(undefined));
    if (Number(req.headers['content-length'] ?? 0) > limits.maxBytes) tooLarge();
  });
}
